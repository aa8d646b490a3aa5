import type { LoopThresholds } from './DatasetSpec.js';

export type RunOutcomeTruth = 'success' | 'failure' | 'incomplete';

/** Primary failure causes, in priority order (RELIABILITY-MATH "Failure taxonomy"). */
export const FAILURE_CAUSES = [
  'loop',
  'partial_execution',
  'tool_failure',
  'validation_exhausted',
  'llm_error',
  'timeout',
  'unknown',
] as const;
export type FailureCause = (typeof FAILURE_CAUSES)[number];

export const LOOP_KINDS = ['repeated_action', 'no_progress', 'ping_pong', 'runaway'] as const;
export type LoopKind = (typeof LOOP_KINDS)[number];

/** Which no-progress rule fired (the other kinds have one rule each). */
export type LoopVariant = 'tool_args' | 'state_hash' | 'failed_validation' | 'alternation' | 'step_count';

/** One loop detection a correct detector must report. */
export interface LoopTruth {
  kind: LoopKind;
  variant: LoopVariant;
  /** The spans that form the detection, in start order (runaway: the steps beyond the threshold). */
  evidenceSpanIds: string[];
  /** Repeats (repeated action, no progress), A→B cycles (ping-pong), or steps in the run (runaway). */
  count: number;
  /** Duration of the repeats after the first (ping-pong: after the first cycle; runaway: the steps beyond the threshold). */
  wastedNs: number;
  wastedCostUsd: number;
}

/** How a completed run counts in the gap decomposition (null: a clean success, or incomplete). */
export type GapClass = 'step_explained' | 'seam' | 'fallback_recovery';

export interface RunTruth {
  runIndex: number;
  runId: string;
  traceId: string;
  projectId: string;
  service: string;
  /** The generating agent (queries report '' for incomplete runs: no root, no name). */
  agent: string;
  tier: 'free' | 'pro';
  /** null when incomplete. */
  rootSpanId: string | null;
  outcome: RunOutcomeTruth;
  primaryCause: FailureCause | null;
  gapClass: GapClass | null;
  /** Root start / end; for incomplete runs the extent of the spans present. */
  startNs: bigint;
  endNs: bigint;
  durationNs: number;
  spanCount: number;
  /** Spans whose step kind is neither '' nor 'run'. */
  steps: number;
  attemptGroups: number;
  /** Groups none of whose attempts succeeded. */
  failedGroups: number;
  /** Sum over spans whose usage counts (step kind not '', 'run', 'handoff'). */
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  /** Counted spans with tokens, no explicit cost and a model missing from the price table (cost 0). */
  unpricedSpans: number;
  loops: LoopTruth[];
  /** The run was shaped by an injected scenario (loops): its groups were forced, not drawn. */
  forced: boolean;
}

/** Realised attempt-group counts of one step name of one agent, over completed runs. */
export interface StepTruth {
  projectId: string;
  service: string;
  agent: string;
  stepName: string;
  stepKind: string;
  groups: number;
  groupsInSuccessfulRuns: number;
  firstOk: number;
  anyOk: number;
  failedFirst: number;
  recovered: number;
  attempts: number;
  okAttempts: number;
  /** Duration and cost of the attempts after the first. */
  retryExtraNs: number;
  retryExtraCostUsd: number;
  /** Groups of forced (scenario) runs, included in the counts above. */
  forcedGroups: number;
  /** Groups in incomplete runs (not included above). */
  groupsInIncompleteRuns: number;
  /** The generating probabilities (children's failures folded in), for interval checks. */
  generating: {
    firstAttemptSuccess: number;
    /** Per retry. */
    retrySuccess: number;
    maxAttempts: number;
    /** p(s) = 1 − (1 − f)(1 − r)^(m−1). */
    eventualSuccess: number;
    /** r(s) = 1 − (1 − r)^(m−1). */
    recovery: number;
  };
}

export type FailureCauseCounts = Record<FailureCause, number>;
export type LoopKindCounts = Record<LoopKind, number>;

export interface AgentTruth {
  projectId: string;
  service: string;
  agent: string;
  runs: number;
  success: number;
  failure: number;
  incomplete: number;
  /** success / (success + failure). */
  observedSuccess: number;
  stepExplainedFailures: number;
  seamFailures: number;
  fallbackRecoveries: number;
  /** Π p̂(s)^k̂(s) over the realised counts (what the API must report). */
  predictedRealized: number;
  /** Π p(s)^k(s) with the generating p and the expected k (analytic), or the realised k (see method). */
  predictedTrue: number;
  predictedTrueMethod: 'analytic' | 'realized-k';
  /** Expected probability of success under the generating model (analytic agents only). */
  trueSuccessProbability: number | null;
  causes: FailureCauseCounts;
  loops: LoopKindCounts;
  /** Median (exactPercentile 0.5, the lower median) of steps per run over all the agent's runs. */
  medianStepsPerRun: number;
  runawayThreshold: number;
  tailDriver: string | null;
  costUsd: number;
}

export interface ModelTruth {
  model: string;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  costUsd: number;
}

export interface DatasetTruth {
  seed: number;
  startNs: bigint;
  endNs: bigint;
  thresholds: LoopThresholds;
  spanCount: number;
  runs: RunTruth[];
  steps: StepTruth[];
  agents: AgentTruth[];
  /** Over counted llm spans of all runs (incomplete included). */
  models: ModelTruth[];
  totals: {
    runs: number;
    success: number;
    failure: number;
    incomplete: number;
    costUsd: number;
    inputTokens: number;
    outputTokens: number;
    causes: FailureCauseCounts;
    loops: LoopKindCounts;
    /** Completed-run-weighted mean of the agents' predictedRealized. */
    predictedRealized: number;
  };
}
