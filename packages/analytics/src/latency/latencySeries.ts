import { type LatencyGroupBy } from '@telltale/semconv';
import type { StoreRows } from '@telltale/store';
import { latencyStats, type LatencyStats } from './latencyPercentiles.js';

/** Bucket widths a series may use, in seconds. */
export const LATENCY_INTERVALS = [60, 300, 900, 3600, 21_600, 86_400] as const;
export type LatencyIntervalSeconds = (typeof LATENCY_INTERVALS)[number];

/** A series aims at no more than this many buckets when the interval is automatic. */
export const MAX_SERIES_POINTS = 200;

export interface LatencyPoint extends LatencyStats {
  /** Bucket start, ms since the epoch. */
  startUnixMs: number;
}

export interface LatencySeriesGroup {
  key: string;
  service: string;
  /** Values over the whole window. */
  count: number;
  /** Buckets with values, in time order (empty buckets are absent). */
  points: LatencyPoint[];
}

export interface LatencySeries {
  groupBy: LatencyGroupBy;
  intervalSeconds: LatencyIntervalSeconds;
  /** Largest groups first. */
  series: LatencySeriesGroup[];
}

export function isLatencyInterval(seconds: number): seconds is LatencyIntervalSeconds {
  return (LATENCY_INTERVALS as readonly number[]).includes(seconds);
}

/** The smallest allowed interval that cuts the window into at most MAX_SERIES_POINTS buckets (else the largest). */
export function autoInterval(windowNs: bigint): LatencyIntervalSeconds {
  for (const seconds of LATENCY_INTERVALS) {
    if (windowNs <= BigInt(seconds) * 1_000_000_000n * BigInt(MAX_SERIES_POINTS)) return seconds;
  }
  return LATENCY_INTERVALS[LATENCY_INTERVALS.length - 1]!;
}

/** Store rows (group × bucket, largest groups first) as one series per group. */
export function latencySeries(
  rows: readonly StoreRows.LatencySeriesRow[],
  groupBy: LatencyGroupBy,
  intervalSeconds: LatencyIntervalSeconds,
): LatencySeries {
  const byGroup = new Map<string, LatencySeriesGroup>();
  for (const row of rows) {
    const id = JSON.stringify([row.key, row.service]);
    let group = byGroup.get(id);
    if (group === undefined) {
      group = { key: row.key, service: row.service, count: 0, points: [] };
      byGroup.set(id, group);
    }
    group.count += row.count;
    group.points.push({ startUnixMs: row.bucketStartMs, ...latencyStats(row) });
  }
  const series = [...byGroup.values()];
  for (const s of series) s.points.sort((a, b) => a.startUnixMs - b.startUnixMs);
  series.sort(
    (a, b) =>
      b.count - a.count ||
      (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) ||
      (a.service < b.service ? -1 : a.service > b.service ? 1 : 0),
  );
  return { groupBy, intervalSeconds, series };
}
