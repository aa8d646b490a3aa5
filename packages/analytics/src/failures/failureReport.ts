import { FAILURE_CAUSES, type FailureCause } from '@telltale/semconv';
import type { StoreRows } from '@telltale/store';

export interface CauseShare {
  cause: FailureCause;
  runs: number;
  /** runs / failed runs; null without failed runs. */
  share: number | null;
}

/** Failed runs by primary cause, every cause listed in priority order. */
export interface FailureBreakdown {
  failedRuns: number;
  causes: CauseShare[];
}

export interface FailureSeriesPoint {
  bucketStartMs: number;
  failedRuns: number;
  counts: Record<FailureCause, number>;
}

export interface FailureSeries {
  intervalSeconds: number;
  /** Intervals with at least one failed run, in time order. */
  points: FailureSeriesPoint[];
}

/** Shares of the causes (they sum to 1: every failed run has exactly one). */
export function failureBreakdown(counts: Readonly<Record<FailureCause, number>>): FailureBreakdown {
  const failedRuns = FAILURE_CAUSES.reduce((sum, c) => sum + counts[c], 0);
  return {
    failedRuns,
    causes: FAILURE_CAUSES.map((cause) => ({
      cause,
      runs: counts[cause],
      share: failedRuns === 0 ? null : counts[cause] / failedRuns,
    })),
  };
}

export function failureSeries(buckets: readonly StoreRows.FailureBucket[], intervalSeconds: number): FailureSeries {
  return {
    intervalSeconds,
    points: buckets.map((b) => ({
      bucketStartMs: b.bucketStartMs,
      failedRuns: FAILURE_CAUSES.reduce((sum, c) => sum + b.counts[c], 0),
      counts: { ...b.counts },
    })),
  };
}
