export { Analytics } from './Analytics.js';
export type { AnalyticsOptions } from './Analytics.js';
export { wilson } from './stats/wilson.js';
export { NO_ESTIMATE, Z95 } from './stats/Interval.js';
export type { Estimate } from './stats/Interval.js';
export { predictEndToEnd, stepSuccessRates } from './reliability/predict.js';
export type { Prediction, AgentPrediction, StepSuccess } from './reliability/predict.js';
export { reliabilityReport } from './reliability/reliabilityReport.js';
export type { ReliabilitySummary, StepReliability } from './reliability/reliabilityReport.js';
export { compoundingCurve } from './reliability/compoundingCurve.js';
export type { CompoundingCurve, CurveRow } from './reliability/compoundingCurve.js';
export { BUNDLED_PRICES } from './cost/bundledPrices.js';
export type { ModelPrice } from './cost/bundledPrices.js';
export { resolvePriceTable } from './cost/priceTable.js';
export { latencyPercentiles, latencyStats, exactLimitOf } from './latency/latencyPercentiles.js';
export type {
  LatencyPercentiles,
  LatencyGroup,
  LatencyStats,
  PercentilesNs,
  PercentileAccuracy,
  LatencyPrecision,
} from './latency/latencyPercentiles.js';
export {
  latencySeries,
  autoInterval,
  isLatencyInterval,
  LATENCY_INTERVALS,
  MAX_SERIES_POINTS,
} from './latency/latencySeries.js';
export type {
  LatencySeries,
  LatencySeriesGroup,
  LatencyPoint,
  LatencyIntervalSeconds,
} from './latency/latencySeries.js';
export { tailAttribution } from './latency/tailAttribution.js';
export type { TailAttribution, TailStepShare } from './latency/tailAttribution.js';
export { costReport } from './cost/costReport.js';
export type { CostSummary, LoopingRunCost } from './cost/costReport.js';
export { costBreakdown } from './cost/costBreakdown.js';
export type { CostBreakdown, CostBreakdownRow } from './cost/costBreakdown.js';
export { costSeries, bucketRange, MAX_COST_BUCKETS } from './cost/costSeries.js';
export type { CostSeries } from './cost/costSeries.js';
export { PriceResolver } from './cost/PriceResolver.js';
export type { EffectivePrice, PriceResolverOptions } from './cost/PriceResolver.js';
export { CostAnalytics } from './cost/CostAnalytics.js';
export { DEFAULT_LOOP_THRESHOLDS, resolveLoopThresholds, medianSteps, runawayLimit } from './loops/LoopThresholds.js';
export { detectLoops, byStartThenSpan } from './loops/detectLoops.js';
export type { LoopStep, LoopDetection, DetectLoopsContext } from './loops/detectLoops.js';
export { loopReport, toLoopStep, EVIDENCE_SPAN_CAP } from './loops/loopReport.js';
export type { LoopsReport, LoopDetectionView, LoopEvidence } from './loops/loopReport.js';
export { loopRateSeries } from './loops/loopRateSeries.js';
export type { LoopRateSeries, LoopRatePoint } from './loops/loopRateSeries.js';
export { LoopAnalytics } from './loops/LoopAnalytics.js';
export type { LoopOptions, LoopListOptions } from './loops/LoopAnalytics.js';
export { failureBreakdown, failureSeries } from './failures/failureReport.js';
export type { FailureBreakdown, FailureSeries, FailureSeriesPoint, CauseShare } from './failures/failureReport.js';
export { runHistogram } from './runs/runHistogram.js';
export type { RunHistogram, RunHistogramBucket } from './runs/runHistogram.js';
