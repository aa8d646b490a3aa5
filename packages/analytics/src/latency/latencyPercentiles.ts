import {
  DIGEST_RELATIVE_ERROR,
  EXACT_PERCENTILE_LIMIT,
  PERCENTILE_LEVELS,
  type LatencyGroupBy,
} from '@telltale/semconv';
import type { StoreRows } from '@telltale/store';

/**
 * `exact`: nearest-rank percentiles for groups up to EXACT_PERCENTILE_LIMIT
 * values (every value is read); `sketch`: DDSketch percentiles for every
 * group, which the per-minute rollups serve without reading the spans when
 * the filters allow (cost flat in the data's size).
 */
export type LatencyPrecision = 'exact' | 'sketch';

/** The store's exact limit for a precision: `sketch` makes every group a digest group. */
export function exactLimitOf(precision: LatencyPrecision = 'exact'): number {
  return precision === 'sketch' ? 0 : EXACT_PERCENTILE_LIMIT;
}

/** How a group's percentiles were computed. */
export type PercentileAccuracy =
  | { method: 'exact' }
  /** DDSketch: each value within ±relativeError of a value at the percentile's rank. */
  | { method: 'ddsketch'; relativeError: number };

/** Duration percentiles in nanoseconds. */
export interface PercentilesNs {
  p50: number;
  p90: number;
  p95: number;
  p99: number;
  p999: number;
}

export interface LatencyStats {
  count: number;
  meanNs: number;
  maxNs: number;
  percentilesNs: PercentilesNs;
  accuracy: PercentileAccuracy;
}

export interface LatencyGroup extends LatencyStats {
  /** Step name, tool, model or agent; '' for the single `run` group. */
  key: string;
  /** The agent's service (agent grouping), else ''. */
  service: string;
}

export interface LatencyPercentiles {
  groupBy: LatencyGroupBy;
  levels: readonly number[];
  /** Groups with more values than this report digest percentiles. */
  exactLimit: number;
  /** Largest groups first. */
  groups: LatencyGroup[];
}

/** A store row's quantile array as named percentiles, with how they were computed. */
export function latencyStats(row: StoreRows.LatencyGroupRow): LatencyStats {
  const q = (i: number): number => row.quantilesNs[i] ?? Number.NaN;
  return {
    count: row.count,
    meanNs: row.meanNs,
    maxNs: row.maxNs,
    percentilesNs: { p50: q(0), p90: q(1), p95: q(2), p99: q(3), p999: q(4) },
    accuracy: row.digest ? { method: 'ddsketch', relativeError: DIGEST_RELATIVE_ERROR } : { method: 'exact' },
  };
}

/** RELIABILITY-MATH "Latency": percentiles per group, exact up to the limit. */
export function latencyPercentiles(
  rows: readonly StoreRows.LatencyGroupRow[],
  groupBy: LatencyGroupBy,
  exactLimit = EXACT_PERCENTILE_LIMIT,
): LatencyPercentiles {
  return {
    groupBy,
    levels: PERCENTILE_LEVELS,
    exactLimit,
    groups: rows.map((row) => ({ key: row.key, service: row.service, ...latencyStats(row) })),
  };
}
