import { z } from 'zod';
import { COST_GROUP_BYS, FAILURE_CAUSES, LATENCY_GROUP_BYS, LOOP_KINDS, type LoopKind } from '@telltale/semconv';
import { Count, DurationNs, Money, Rate, UnixNanosString } from './wire.js';

/** What the analytics routes answer: durations in `Nanoseconds`, money in `Usd`, rates in `Fraction`. */

/** A proportion with its 95% interval (Wilson, or the delta method for predictions); null values without data. */
export const estimateSchema = z.object({
  value: Rate.nullable(),
  low: Rate.nullable(),
  high: Rate.nullable(),
  n: Count,
});
export type Estimate = z.infer<typeof estimateSchema>;

export const stepReliabilitySchema = z.object({
  stepName: z.string(),
  stepKind: z.string(),
  groups: Count,
  attempts: Count,
  attemptSuccess: estimateSchema,
  firstAttemptSuccess: estimateSchema,
  eventualSuccess: estimateSchema,
  recovery: estimateSchema,
  retryExtraNs: DurationNs,
  retryExtraCostUsd: Money,
  whatIfPredicted: Rate.nullable(),
  whatIfGain: z.number().nullable(),
});
export type StepReliability = z.infer<typeof stepReliabilitySchema>;

export const reliabilitySummarySchema = z.object({
  runs: z.object({ success: Count, failure: Count, incomplete: Count }),
  observed: estimateSchema,
  predicted: estimateSchema,
  /** O − P; its bounds can be negative, so a plain number rather than a Fraction. */
  gap: z.object({ value: z.number().nullable(), low: z.number().nullable(), high: z.number().nullable(), n: Count }),
  decomposition: z.object({ stepExplainedFailures: Count, seamFailures: Count, fallbackRecoveries: Count }),
  agents: z.array(
    z.object({
      agent: z.string(),
      service: z.string(),
      runs: Count,
      predicted: estimateSchema,
      observed: estimateSchema,
    }),
  ),
  steps: z.array(stepReliabilitySchema),
});
export type ReliabilitySummary = z.infer<typeof reliabilitySummarySchema>;

export const compoundingCurveSchema = z.object({
  perGroupSuccess: Rate.nullable(),
  points: z.array(z.object({ groups: Count, runs: Count, observed: estimateSchema, fitted: Rate })),
});
export type CompoundingCurve = z.infer<typeof compoundingCurveSchema>;

export const LATENCY_LEVELS = ['p50', 'p90', 'p95', 'p99', 'p999'] as const;
export type LatencyLevel = (typeof LATENCY_LEVELS)[number];
const percentilesSchema = z.object({
  p50: DurationNs,
  p90: DurationNs,
  p95: DurationNs,
  p99: DurationNs,
  p999: DurationNs,
});
export type PercentilesNs = z.infer<typeof percentilesSchema>;

export const latencyPercentilesSchema = z.object({
  groupBy: z.enum(LATENCY_GROUP_BYS),
  groups: z.array(
    z.object({
      key: z.string(),
      service: z.string(),
      count: Count,
      meanNs: DurationNs,
      maxNs: DurationNs,
      percentilesNs: percentilesSchema,
    }),
  ),
});
export type LatencyPercentiles = z.infer<typeof latencyPercentilesSchema>;

export const latencySeriesSchema = z.object({
  groupBy: z.enum(LATENCY_GROUP_BYS),
  intervalSeconds: z.number().positive(),
  series: z.array(
    z.object({
      key: z.string(),
      service: z.string(),
      count: Count,
      points: z.array(z.object({ startUnixMs: z.number(), count: Count, percentilesNs: percentilesSchema })),
    }),
  ),
});
export type LatencySeries = z.infer<typeof latencySeriesSchema>;

export const tailAttributionSchema = z.object({
  completedRuns: Count,
  tailRuns: Count,
  medianRuns: Count,
  thresholdsNs: z.object({ p99: DurationNs, p50: DurationNs }),
  steps: z.array(
    z.object({ stepName: z.string(), kind: z.string(), tailShare: Rate, medianShare: Rate, delta: z.number() }),
  ),
  tailDriver: z.string().nullable(),
});
export type TailAttribution = z.infer<typeof tailAttributionSchema>;

const loopKindSchema = z.enum(LOOP_KINDS);
const loopTotalsSchema = z.object({
  runsFlagged: Count,
  detections: Count,
  wastedNs: DurationNs,
  wastedCostUsd: Money,
});
export type LoopTotals = z.infer<typeof loopTotalsSchema>;

export const loopDetectionSchema = z.object({
  runId: z.string(),
  agent: z.string(),
  service: z.string(),
  runOutcome: z.string(),
  runStartUnixNano: UnixNanosString,
  kind: loopKindSchema,
  variant: z.string(),
  count: Count,
  wastedNs: DurationNs,
  wastedCostUsd: Money,
  evidence: z.object({
    spanIds: z.array(z.string()),
    spanCount: Count,
    toolName: z.string().optional(),
    argsHash: z.string().optional(),
    stateHash: z.string().optional(),
    outputHash: z.string().optional(),
    cycle: z.array(z.string()).optional(),
    stepLimit: z.number().optional(),
  }),
});
export type LoopDetection = z.infer<typeof loopDetectionSchema>;

export const loopsReportSchema = z.object({
  detections: z.array(loopDetectionSchema),
  total: Count,
  limit: Count,
  offset: Count,
  runs: Count,
  byKind: z.object(
    Object.fromEntries(LOOP_KINDS.map((k) => [k, loopTotalsSchema])) as Record<LoopKind, typeof loopTotalsSchema>,
  ),
  overall: loopTotalsSchema,
});
export type LoopsReport = z.infer<typeof loopsReportSchema>;

export const loopRateSchema = z.object({
  intervalSeconds: z.number().positive(),
  points: z.array(z.object({ bucketStartMs: z.number(), runs: Count, loopingRuns: Count, rate: Rate })),
});
export type LoopRate = z.infer<typeof loopRateSchema>;

export const runLoopFlagsSchema = z.object({
  runs: z.array(
    z.object({
      runId: z.string(),
      kinds: z.array(loopKindSchema),
      detections: Count,
      wastedNs: DurationNs,
      wastedCostUsd: Money,
    }),
  ),
});
export type RunLoopFlags = z.infer<typeof runLoopFlagsSchema>;

export const costSummarySchema = z.object({
  runs: z.object({ total: Count, success: Count, failure: Count, incomplete: Count, completed: Count }),
  totalUsd: Money,
  perRun: z.object({ meanUsd: Money, p50Usd: Money, p95Usd: Money, p99Usd: Money, maxUsd: Money }),
  perSuccessfulRunUsd: Money.nullable(),
  perSuccessUsd: Money.nullable(),
  wasted: z.object({ failedRunsUsd: Money, loopingRunsUsd: Money.nullable(), totalUsd: Money, share: Rate }),
  /** Every run with a loop detection, by outcome; null (or absent from older servers) when not computed. */
  looping: z
    .object({ runs: Count, costUsd: Money, failedRuns: Count, failedUsd: Money })
    .nullable()
    .optional()
    .transform((v) => v ?? null),
  unpriced: z.object({ spans: Count }),
});
export type CostSummary = z.infer<typeof costSummarySchema>;

export const costBreakdownSchema = z.object({
  groupBy: z.enum(COST_GROUP_BYS),
  totalUsd: Money,
  rows: z.array(z.object({ key: z.string(), costUsd: Money, share: Rate, calls: Count, unpricedSpans: Count })),
});
export type CostBreakdown = z.infer<typeof costBreakdownSchema>;

export const costSeriesSchema = z.object({
  intervalSeconds: z.number().positive(),
  buckets: z.array(
    z.object({
      bucketStartMs: z.number(),
      runs: Count,
      completedRuns: Count,
      totalUsd: Money,
      failureUsd: Money,
      meanUsd: Money,
      p50Usd: Money,
      p95Usd: Money,
      maxUsd: Money,
    }),
  ),
});
export type CostSeries = z.infer<typeof costSeriesSchema>;

export const failureCauseSchema = z.enum(FAILURE_CAUSES);

export const failureBreakdownSchema = z.object({
  failedRuns: Count,
  causes: z.array(z.object({ cause: failureCauseSchema, runs: Count, share: Rate.nullable() })),
});
export type FailureBreakdown = z.infer<typeof failureBreakdownSchema>;

export const failureSeriesSchema = z.object({
  intervalSeconds: z.number().positive(),
  points: z.array(
    z.object({ bucketStartMs: z.number(), failedRuns: Count, counts: z.record(failureCauseSchema, Count) }),
  ),
});
export type FailureSeries = z.infer<typeof failureSeriesSchema>;

export const runCausesSchema = z.object({ runs: z.array(z.object({ runId: z.string(), cause: failureCauseSchema })) });
export type RunCauses = z.infer<typeof runCausesSchema>;

/** Completed runs by duration (ns) or cost (USD) in equal-width buckets; values stay in the metric's unit. */
export const runHistogramSchema = z.object({
  metric: z.enum(['duration', 'cost']),
  runs: Count,
  min: z.number(),
  max: z.number(),
  buckets: z.array(z.object({ from: z.number(), to: z.number(), runs: Count })),
});
export type RunHistogram = z.infer<typeof runHistogramSchema>;
