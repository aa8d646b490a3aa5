import type {
  CostSummary,
  LoopDetection,
  LoopsReport,
  ReliabilitySummary,
  StepReliability,
} from '@telltale/api-contract';
import {
  costSummarySchema,
  loopsReportSchema,
  reliabilitySummarySchema,
  stepReliabilitySchema,
} from '@telltale/api-contract';

/** An estimate as the API sends it. */
export const est = (value: number | null, low: number | null = value, high: number | null = value, n = 100) => ({
  value,
  low,
  high,
  n,
});

/** A step of a reliability summary, as the API sends it; override any field. */
export function stepJson(
  stepName: string,
  p: number,
  whatIfPredicted: number | null,
  predicted: number,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    stepName,
    stepKind: 'tool',
    groups: 100,
    attempts: 110,
    attemptSuccess: est(p),
    firstAttemptSuccess: est(p - 0.05),
    eventualSuccess: est(p, p - 0.02, p + 0.01),
    recovery: est(0.5, 0.3, 0.7, 10),
    retryExtraNs: 2_000_000_000,
    retryExtraCostUsd: 0.25,
    whatIfPredicted,
    whatIfGain: whatIfPredicted === null ? null : whatIfPredicted - predicted,
    ...extra,
  };
}

export function step(
  stepName: string,
  p: number,
  whatIfPredicted: number | null,
  predicted: number,
  extra: Record<string, unknown> = {},
): StepReliability {
  return stepReliabilitySchema.parse(stepJson(stepName, p, whatIfPredicted, predicted, extra));
}

/** A summary with observed 0.81 and predicted `predicted` over the given steps. */
export function summary(
  steps: Record<string, unknown>[],
  opts: { predicted?: number; observed?: number; success?: number; failure?: number } = {},
): ReliabilitySummary {
  const predicted = opts.predicted ?? 0.81;
  const observed = opts.observed ?? 0.81;
  return reliabilitySummarySchema.parse({
    runs: { success: opts.success ?? 81, failure: opts.failure ?? 19, incomplete: 0 },
    observed: est(observed, observed - 0.05, observed + 0.05),
    predicted: est(predicted, predicted - 0.04, predicted + 0.04),
    gap: { value: observed - predicted, low: observed - predicted - 0.06, high: observed - predicted + 0.06, n: 100 },
    decomposition: { stepExplainedFailures: 15, seamFailures: 4, fallbackRecoveries: 2 },
    agents: [],
    steps,
  });
}

export function detectionJson(
  runId: string,
  kind: LoopDetection['kind'],
  evidence: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    runId,
    agent: 'fixer',
    service: 'svc',
    runOutcome: 'failure',
    runStartUnixNano: '1700000000000000000',
    kind,
    variant: 'v',
    count: 4,
    wastedNs: 3_000_000_000,
    wastedCostUsd: 0.03,
    evidence: { spanIds: ['a', 'b'], spanCount: 2, ...evidence },
    ...extra,
  };
}

const totals = (runsFlagged: number, detections: number, wastedNs: number, wastedCostUsd: number) => ({
  runsFlagged,
  detections,
  wastedNs,
  wastedCostUsd,
});

export function loopsReport(
  detections: Record<string, unknown>[],
  overall = totals(3, 4, 9_000_000_000, 0.12),
  runs = 60,
): LoopsReport {
  return loopsReportSchema.parse({
    detections,
    total: detections.length,
    limit: 50,
    offset: 0,
    runs,
    byKind: {
      repeated_action: totals(2, 3, 6_000_000_000, 0.1),
      no_progress: totals(0, 0, 0, 0),
      ping_pong: totals(1, 1, 3_000_000_000, 0.02),
      runaway: totals(0, 0, 0, 0),
    },
    overall,
  });
}

export function costSummary(
  extra: {
    failedRunsUsd?: number;
    loopingRunsUsd?: number | null;
    completed?: number;
    looping?: { runs: number; costUsd: number; failedRuns: number; failedUsd: number } | null;
  } = {},
): CostSummary {
  const completed = extra.completed ?? 100;
  return costSummarySchema.parse({
    runs: {
      total: completed,
      success: Math.round(completed * 0.8),
      failure: completed - Math.round(completed * 0.8),
      incomplete: 0,
      completed,
    },
    totalUsd: 12.5,
    perRun: { meanUsd: 0.125, p50Usd: 0.1, p95Usd: 0.3, p99Usd: 0.9, maxUsd: 1.2 },
    perSuccessfulRunUsd: 0.11,
    perSuccessUsd: 0.156,
    wasted: {
      failedRunsUsd: extra.failedRunsUsd ?? 3.5,
      loopingRunsUsd: extra.loopingRunsUsd === undefined ? null : extra.loopingRunsUsd,
      totalUsd: 3.5,
      share: 0.28,
    },
    looping: extra.looping ?? null,
    unpriced: { spans: 0 },
  });
}
