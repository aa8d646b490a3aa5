import type { StoreRows } from '@telltale/store';
import { seriesIntervalMs, TelltaleError, TelltaleErrorCode } from '@telltale/semconv';

/** More buckets than this in one series is a request error. */
export const MAX_COST_BUCKETS = 10_000;

export interface CostSeries {
  intervalSeconds: number;
  /** Every bucket of the window in order, empty ones as zeros. */
  buckets: StoreRows.CostBucket[];
}

/** The first and last bucket starts (ms) of a window; throws BAD_REQUEST beyond MAX_COST_BUCKETS. */
export function bucketRange(fromMs: number, toMs: number, intervalSeconds: number): { first: number; last: number } {
  const step = seriesIntervalMs(intervalSeconds, 'intervalSeconds');
  const first = Math.floor(fromMs / step) * step;
  const last = Math.max(first, Math.floor((toMs - 1) / step) * step);
  if ((last - first) / step + 1 > MAX_COST_BUCKETS) {
    throw new TelltaleError({
      code: TelltaleErrorCode.BAD_REQUEST,
      message: `the window holds more than ${MAX_COST_BUCKETS} buckets of ${intervalSeconds} s: use a longer interval`,
    });
  }
  return { first, last };
}

/**
 * Pure: the series with the buckets the query left out (no run started in
 * them) filled with zeros, from the bucket holding `fromMs` to the one
 * holding `toMs − 1` (buckets align to the epoch).
 */
export function costSeries(
  rows: readonly StoreRows.CostBucket[],
  fromMs: number,
  toMs: number,
  intervalSeconds: number,
): CostSeries {
  const step = intervalSeconds * 1000;
  const { first, last } = bucketRange(fromMs, toMs, intervalSeconds);
  const byStart = new Map(rows.map((r) => [r.bucketStartMs, r]));
  const buckets: StoreRows.CostBucket[] = [];
  for (let t = first; t <= last; t += step) {
    buckets.push(
      byStart.get(t) ?? {
        bucketStartMs: t,
        runs: 0,
        completedRuns: 0,
        totalUsd: 0,
        failureUsd: 0,
        meanUsd: 0,
        p50Usd: 0,
        p95Usd: 0,
        maxUsd: 0,
      },
    );
  }
  return { intervalSeconds, buckets };
}
