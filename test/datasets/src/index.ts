export { generateDataset } from './generateDataset.js';
export type { Dataset } from './generateDataset.js';
export { generateDatasetChunks } from './generateDatasetChunks.js';
export type { DatasetChunk, ChunkOptions } from './generateDatasetChunks.js';
export { smallDataset } from './smallDataset.js';
export { benchDataset } from './benchDataset.js';
export { presetWindow } from './presetWindow.js';
export type { PresetOptions } from './presetWindow.js';
export { DEFAULT_THRESHOLDS } from './DatasetSpec.js';
export type {
  DatasetSpec,
  AgentSpec,
  StepSpec,
  StepNode,
  BranchSpec,
  RepeatSpec,
  LatencySpec,
  LlmSpec,
  LoopInjectionSpec,
  LoopThresholds,
  CostSpec,
  GeneratedStepKind,
} from './DatasetSpec.js';
export { FAILURE_CAUSES, LOOP_KINDS } from './DatasetTruth.js';
export type {
  DatasetTruth,
  RunTruth,
  StepTruth,
  AgentTruth,
  ModelTruth,
  LoopTruth,
  LoopKind,
  LoopVariant,
  FailureCause,
  GapClass,
  RunOutcomeTruth,
  FailureCauseCounts,
  LoopKindCounts,
} from './DatasetTruth.js';
export { validateSpec } from './validateSpec.js';
export { pipelineAgent, PIPELINE_EVENTUAL_SUCCESS } from './agents/pipelineAgent.js';
export { triageAgent } from './agents/triageAgent.js';
export { supportAgent } from './agents/supportAgent.js';
export { legacyAgent } from './agents/legacyAgent.js';
export { coderAgent, CODER_LOOP_RATES } from './agents/coderAgent.js';
export { checkoutAgent } from './agents/checkoutAgent.js';
export { benchAgents } from './agents/benchAgents.js';
export { eventual } from './agents/stepHelpers.js';
export { DEFAULT_PRICES } from './defaultPrices.js';
export { spanCostUsd, priceTokens, usageCounts, AGGREGATE_STEP_KINDS } from './spanCostUsd.js';
export type { SpanCost } from './spanCostUsd.js';
export { stepProbabilities } from './stepProbabilities.js';
export type { StepProbabilities } from './stepProbabilities.js';
export { analyticPrediction } from './analyticPrediction.js';
export type { AnalyticPrediction } from './analyticPrediction.js';
export { exactPercentile, exactPercentiles } from './exactPercentile.js';
export { selfTimeNs } from './selfTimeNs.js';
export { tailAttribution } from './tailAttribution.js';
export type { TailAttribution, TailShare } from './tailAttribution.js';
export { attemptGroups } from './attemptGroups.js';
export type { AttemptGroup } from './attemptGroups.js';
export { detectLoops } from './detectLoops.js';
export { analyzeRuns } from './analyzeRuns.js';
export type { RunFacts } from './analyzeRuns.js';
export { shuffleForDelivery } from './shuffleForDelivery.js';
export type { DeliveryOptions } from './shuffleForDelivery.js';
export { firstDifference } from './firstDifference.js';
export { crossServiceVariant, DOWNSTREAM_SERVICE } from './crossServiceVariant.js';
