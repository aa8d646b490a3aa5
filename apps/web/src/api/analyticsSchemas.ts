import { z } from 'zod';
import { LOOP_KINDS, type LoopKind } from '@telltale/semconv';
import { fraction, nanoseconds, parseUnixNanos, usd } from '../units';

/**
 * The analytics routes of `/api/v1` (reliability, latency, loops, cost,
 * failures), parsed at the boundary into brand units: durations in
 * `Nanoseconds`, money in `Usd`, rates in `Fraction`. Fields the dashboard does
 * not use are left out (zod drops them), so the server can grow.
 */

const count = z.number().int().nonnegative();
const ns = z.number().nonnegative().transform(nanoseconds);
const money = z.number().transform(usd);
const rate = z.number().transform(fraction);

/** A proportion with its 95% interval (Wilson, or the delta method for predictions); null values without data. */
export const estimateSchema = z.object({ value: rate.nullable(), low: rate.nullable(), high: rate.nullable(), n: count });
export type Estimate = z.infer<typeof estimateSchema>;

export const stepReliabilitySchema = z.object({
  stepName: z.string(),
  stepKind: z.string(),
  groups: count,
  attempts: count,
  attemptSuccess: estimateSchema,
  firstAttemptSuccess: estimateSchema,
  eventualSuccess: estimateSchema,
  recovery: estimateSchema,
  retryExtraNs: ns,
  retryExtraCostUsd: money,
  whatIfPredicted: rate.nullable(),
  whatIfGain: z.number().nullable(),
});
export type StepReliability = z.infer<typeof stepReliabilitySchema>;

export const reliabilitySummarySchema = z.object({
  runs: z.object({ success: count, failure: count, incomplete: count }),
  observed: estimateSchema,
  predicted: estimateSchema,
  /** O − P; its bounds can be negative, so a plain number rather than a Fraction. */
  gap: z.object({ value: z.number().nullable(), low: z.number().nullable(), high: z.number().nullable(), n: count }),
  decomposition: z.object({ stepExplainedFailures: count, seamFailures: count, fallbackRecoveries: count }),
  agents: z.array(z.object({ agent: z.string(), service: z.string(), runs: count, predicted: estimateSchema, observed: estimateSchema })),
  steps: z.array(stepReliabilitySchema),
});
export type ReliabilitySummary = z.infer<typeof reliabilitySummarySchema>;

export const compoundingCurveSchema = z.object({
  perGroupSuccess: rate.nullable(),
  points: z.array(z.object({ groups: count, runs: count, observed: estimateSchema, fitted: rate })),
});
export type CompoundingCurve = z.infer<typeof compoundingCurveSchema>;

export const LATENCY_LEVELS = ['p50', 'p90', 'p95', 'p99', 'p999'] as const;
export type LatencyLevel = (typeof LATENCY_LEVELS)[number];
const percentilesSchema = z.object({ p50: ns, p90: ns, p95: ns, p99: ns, p999: ns });
export type PercentilesNs = z.infer<typeof percentilesSchema>;

export const LATENCY_GROUP_BYS = ['step', 'tool', 'model', 'agent', 'run'] as const;
export type LatencyGroupBy = (typeof LATENCY_GROUP_BYS)[number];

export const latencyPercentilesSchema = z.object({
  groupBy: z.enum(LATENCY_GROUP_BYS),
  groups: z.array(z.object({ key: z.string(), service: z.string(), count: count, meanNs: ns, maxNs: ns, percentilesNs: percentilesSchema })),
});
export type LatencyPercentiles = z.infer<typeof latencyPercentilesSchema>;

export const latencySeriesSchema = z.object({
  groupBy: z.enum(LATENCY_GROUP_BYS),
  intervalSeconds: z.number().positive(),
  series: z.array(
    z.object({
      key: z.string(),
      service: z.string(),
      count: count,
      points: z.array(z.object({ startUnixMs: z.number(), count: count, percentilesNs: percentilesSchema })),
    }),
  ),
});
export type LatencySeries = z.infer<typeof latencySeriesSchema>;

export const tailAttributionSchema = z.object({
  completedRuns: count,
  tailRuns: count,
  medianRuns: count,
  thresholdsNs: z.object({ p99: ns, p50: ns }),
  steps: z.array(z.object({ stepName: z.string(), kind: z.string(), tailShare: rate, medianShare: rate, delta: z.number() })),
  tailDriver: z.string().nullable(),
});
export type TailAttribution = z.infer<typeof tailAttributionSchema>;

/** The loop kinds: one definition, shared with the server (semconv loopKinds.ts). */
export { LOOP_KINDS };
export type { LoopKind };
const loopKindSchema = z.enum(LOOP_KINDS);

const loopTotalsSchema = z.object({ runsFlagged: count, detections: count, wastedNs: ns, wastedCostUsd: money });
export type LoopTotals = z.infer<typeof loopTotalsSchema>;

export const loopDetectionSchema = z.object({
  runId: z.string(),
  agent: z.string(),
  service: z.string(),
  runOutcome: z.string(),
  runStartUnixNano: z.string().regex(/^\d+$/).transform(parseUnixNanos),
  kind: loopKindSchema,
  variant: z.string(),
  count: count,
  wastedNs: ns,
  wastedCostUsd: money,
  evidence: z.object({
    spanIds: z.array(z.string()),
    spanCount: count,
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
  total: count,
  limit: count,
  offset: count,
  runs: count,
  byKind: z.object(Object.fromEntries(LOOP_KINDS.map((k) => [k, loopTotalsSchema])) as Record<LoopKind, typeof loopTotalsSchema>),
  overall: loopTotalsSchema,
});
export type LoopsReport = z.infer<typeof loopsReportSchema>;

export const loopRateSchema = z.object({
  intervalSeconds: z.number().positive(),
  points: z.array(z.object({ bucketStartMs: z.number(), runs: count, loopingRuns: count, rate: rate })),
});
export type LoopRate = z.infer<typeof loopRateSchema>;

export const runLoopFlagsSchema = z.object({
  runs: z.array(z.object({ runId: z.string(), kinds: z.array(loopKindSchema), detections: count, wastedNs: ns, wastedCostUsd: money })),
});
export type RunLoopFlags = z.infer<typeof runLoopFlagsSchema>;

export const costSummarySchema = z.object({
  runs: z.object({ total: count, success: count, failure: count, incomplete: count, completed: count }),
  totalUsd: money,
  perRun: z.object({ meanUsd: money, p50Usd: money, p95Usd: money, p99Usd: money, maxUsd: money }),
  perSuccessfulRunUsd: money.nullable(),
  perSuccessUsd: money.nullable(),
  wasted: z.object({ failedRunsUsd: money, loopingRunsUsd: money.nullable(), totalUsd: money, share: rate }),
  /** Every run with a loop detection, by outcome; null (or absent from older servers) when not computed. */
  looping: z
    .object({ runs: count, costUsd: money, failedRuns: count, failedUsd: money })
    .nullable()
    .optional()
    .transform((v) => v ?? null),
  unpriced: z.object({ spans: count }),
});
export type CostSummary = z.infer<typeof costSummarySchema>;

export const COST_GROUP_BYS = ['model', 'step', 'tool'] as const;
export type CostGroupBy = (typeof COST_GROUP_BYS)[number];

export const costBreakdownSchema = z.object({
  groupBy: z.enum(COST_GROUP_BYS),
  totalUsd: money,
  rows: z.array(z.object({ key: z.string(), costUsd: money, share: rate, calls: count, unpricedSpans: count })),
});
export type CostBreakdown = z.infer<typeof costBreakdownSchema>;

export const costSeriesSchema = z.object({
  intervalSeconds: z.number().positive(),
  buckets: z.array(
    z.object({ bucketStartMs: z.number(), runs: count, completedRuns: count, totalUsd: money, failureUsd: money, meanUsd: money, p50Usd: money, p95Usd: money, maxUsd: money }),
  ),
});
export type CostSeries = z.infer<typeof costSeriesSchema>;

export const FAILURE_CAUSES = ['loop', 'partial_execution', 'tool_failure', 'validation_exhausted', 'llm_error', 'timeout', 'unknown'] as const;
export type FailureCause = (typeof FAILURE_CAUSES)[number];
export const failureCauseSchema = z.enum(FAILURE_CAUSES);

export const failureBreakdownSchema = z.object({
  failedRuns: count,
  causes: z.array(z.object({ cause: failureCauseSchema, runs: count, share: rate.nullable() })),
});
export type FailureBreakdown = z.infer<typeof failureBreakdownSchema>;

export const runCausesSchema = z.object({ runs: z.array(z.object({ runId: z.string(), cause: failureCauseSchema })) });
export type RunCauses = z.infer<typeof runCausesSchema>;

/** Completed runs by duration (ns) or cost (USD) in equal-width buckets; values stay in the metric's unit. */
export const runHistogramSchema = z.object({
  metric: z.enum(['duration', 'cost']),
  runs: count,
  min: z.number(),
  max: z.number(),
  buckets: z.array(z.object({ from: z.number(), to: z.number(), runs: count })),
});
export type RunHistogram = z.infer<typeof runHistogramSchema>;
