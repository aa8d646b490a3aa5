import { type FailureCause } from '@telltale/semconv';
import type { CostBreakdown, CostSeries, CostSummary, FailureBreakdown } from '@telltale/api-contract';
import { formatCount, formatPercent, formatUsd } from '../format';
import type { Usd } from '../units';

export interface BarRow {
  key: string;
  label: string;
  /** The raw number (for tests and tooltips). */
  value: number;
  valueLabel: string;
  /** Bar length relative to the largest row (0–1). */
  bar: number;
  detail: string;
  color?: string;
}

const NO_KEY_LABELS: Readonly<Record<CostBreakdown['groupBy'], string>> = {
  model: '(no model)',
  step: '(no step name)',
  tool: '(not a tool call)',
};

/**
 * Cost by model / step / tool, most expensive first, at most `limit` rows (the
 * rest summed in one), every amount to the precision of the breakdown's total.
 */
export function prepareCostBars(breakdown: CostBreakdown, limit = 10): BarRow[] {
  const sorted = [...breakdown.rows].sort((a, b) => b.costUsd - a.costUsd || a.key.localeCompare(b.key));
  const shown = sorted.slice(0, limit);
  const rest = sorted.slice(limit);
  const max = Math.max(0, ...shown.map((r) => r.costUsd));
  const rows: BarRow[] = shown.map((r) => ({
    key: r.key,
    label: r.key === '' ? NO_KEY_LABELS[breakdown.groupBy] : r.key,
    value: r.costUsd,
    valueLabel: formatUsd(r.costUsd, breakdown.totalUsd),
    bar: max > 0 ? r.costUsd / max : 0,
    detail: `${formatPercent(r.share)} · ${formatCount(r.calls)} calls${r.unpricedSpans > 0 ? ` · ${formatCount(r.unpricedSpans)} unpriced` : ''}`,
  }));
  if (rest.length > 0) {
    const sum = rest.reduce((s, r) => s + r.costUsd, 0);
    rows.push({
      key: '__rest',
      label: `${rest.length} more`,
      value: sum,
      valueLabel: formatUsd(sum as Usd, breakdown.totalUsd),
      bar: max > 0 ? Math.min(1, sum / max) : 0,
      detail: '',
    });
  }
  return rows;
}

export interface CostDistributionBar {
  key: 'p50' | 'mean' | 'p95' | 'p99' | 'max';
  label: string;
  usd: Usd;
  valueLabel: string;
}

/** The cost-per-run distribution as ordered marks: P50, mean, P95, P99, max (completed runs), to the precision of the max. */
export function prepareCostDistribution(summary: CostSummary): CostDistributionBar[] {
  const p = summary.perRun;
  const bar = (key: CostDistributionBar['key'], label: string, value: Usd): CostDistributionBar => ({
    key,
    label,
    usd: value,
    valueLabel: formatUsd(value, p.maxUsd),
  });
  const bars = [
    bar('p50', 'P50', p.p50Usd),
    bar('mean', 'Mean', p.meanUsd),
    bar('p95', 'P95', p.p95Usd),
    bar('p99', 'P99', p.p99Usd),
    bar('max', 'Max', p.maxUsd),
  ];
  return summary.runs.completed === 0 ? [] : bars;
}

/**
 * What the runs with a loop detection cost, split by outcome, to the precision
 * of `scale`: `32 runs: 24 failed ($1.41), 8 did not ($0.43)`.
 */
export function loopingRunsDetail(looping: NonNullable<CostSummary['looping']>, scale: number): string {
  const runs = looping.runs + looping.failedRuns;
  const all = `${formatCount(runs)} ${runs === 1 ? 'run' : 'runs'}`;
  if (looping.failedRuns === 0) return `${all}, none failed`;
  if (looping.runs === 0) return `${all}, all failed`;
  return `${all}: ${formatCount(looping.failedRuns)} failed (${formatUsd(looping.failedUsd, scale)}), ${formatCount(looping.runs)} did not (${formatUsd(looping.costUsd, scale)})`;
}

export interface CostPoint {
  startMs: number;
  label: string;
  runs: number;
  totalUsd: number;
  failureUsd: number;
  p50Usd: number | null;
  p95Usd: number | null;
}

/** Cost per bucket: total, spent on failures, and the run-cost P50/P95 (null without completed runs). */
export function prepareCostSeries(series: CostSeries, label: (ms: number) => string): CostPoint[] {
  return series.buckets.map((b) => ({
    startMs: b.bucketStartMs,
    label: label(b.bucketStartMs),
    runs: b.runs,
    totalUsd: b.totalUsd,
    failureUsd: b.failureUsd,
    p50Usd: b.completedRuns > 0 ? b.p50Usd : null,
    p95Usd: b.completedRuns > 0 ? b.p95Usd : null,
  }));
}

/** Drops the empty buckets before the first and after the last run (a 30-day window around one hour of data). */
export function trimEmptyEnds<T extends { runs: number }>(points: readonly T[]): T[] {
  const first = points.findIndex((p) => p.runs > 0);
  if (first < 0) return [];
  let last = points.length - 1;
  while (last > first && (points[last]?.runs ?? 0) === 0) last -= 1;
  return points.slice(first, last + 1);
}

export const CAUSE_LABELS: Readonly<Record<FailureCause, string>> = {
  loop: 'Loop',
  partial_execution: 'Partial execution',
  tool_failure: 'Tool failure',
  validation_exhausted: 'Validation exhausted',
  llm_error: 'LLM error',
  timeout: 'Timeout',
  unknown: 'Unknown',
};

export const CAUSE_COLORS: Readonly<Record<FailureCause, string>> = {
  loop: '#7c3aed',
  partial_execution: '#db2777',
  tool_failure: '#d97706',
  validation_exhausted: '#0d9488',
  llm_error: '#c026d3',
  timeout: '#2563eb',
  unknown: '#94a3b8',
};

/** Failed runs by primary cause, most runs first; causes with no runs left out. */
export function prepareFailureCauses(failures: FailureBreakdown): BarRow[] {
  const rows = failures.causes.filter((c) => c.runs > 0).sort((a, b) => b.runs - a.runs);
  const max = Math.max(0, ...rows.map((c) => c.runs));
  return rows.map((c) => ({
    key: c.cause,
    label: CAUSE_LABELS[c.cause],
    value: c.runs,
    valueLabel: formatCount(c.runs),
    bar: max > 0 ? c.runs / max : 0,
    detail: c.share === null ? '' : `${formatPercent(c.share)} of failed runs`,
    color: CAUSE_COLORS[c.cause],
  }));
}
