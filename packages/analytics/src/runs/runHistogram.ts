import type { StoreRows } from '@telltale/store';

export interface RunHistogramBucket {
  /** Lower bound (inclusive) and upper bound (exclusive, but the last bucket's is inclusive), in the metric's unit. */
  from: number;
  to: number;
  runs: number;
}

/** Completed runs by whole-run duration (ns) or run cost (USD), in equal-width buckets from min to max. */
export interface RunHistogram {
  metric: StoreRows.RunHistogramMetric;
  unit: 'ns' | 'usd';
  runs: number;
  min: number;
  max: number;
  bucketWidth: number;
  buckets: RunHistogramBucket[];
}

/** Pure: bucket bounds for the counts the query binned; one bucket when every run has the same value. */
export function runHistogram(metric: StoreRows.RunHistogramMetric, rows: StoreRows.RunHistogramRows): RunHistogram {
  const unit = metric === 'duration' ? 'ns' : 'usd';
  if (rows.runs === 0) return { metric, unit, runs: 0, min: 0, max: 0, bucketWidth: 0, buckets: [] };
  if (!(rows.max > rows.min))
    return {
      metric,
      unit,
      runs: rows.runs,
      min: rows.min,
      max: rows.max,
      bucketWidth: 0,
      buckets: [{ from: rows.min, to: rows.max, runs: rows.runs }],
    };
  const width = (rows.max - rows.min) / rows.counts.length;
  return {
    metric,
    unit,
    runs: rows.runs,
    min: rows.min,
    max: rows.max,
    bucketWidth: width,
    buckets: rows.counts.map((runs, i) => ({
      from: rows.min + i * width,
      to: i === rows.counts.length - 1 ? rows.max : rows.min + (i + 1) * width,
      runs,
    })),
  };
}
