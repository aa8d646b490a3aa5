import type { StoreRows } from '@telltale/store';
import type { LoopThresholds } from '@telltale/semconv';

export interface LoopRatePoint {
  bucketStartMs: number;
  runs: number;
  loopingRuns: number;
  /** loopingRuns / runs. */
  rate: number;
}

export interface LoopRateSeries {
  intervalSeconds: number;
  /** Intervals with at least one run, in time order. */
  points: LoopRatePoint[];
  thresholds: LoopThresholds;
}

export function loopRateSeries(
  buckets: readonly StoreRows.LoopRateBucket[],
  intervalSeconds: number,
  thresholds: LoopThresholds,
): LoopRateSeries {
  return {
    intervalSeconds,
    points: buckets.map((b) => ({ ...b, rate: b.runs === 0 ? 0 : b.loopingRuns / b.runs })),
    thresholds,
  };
}
