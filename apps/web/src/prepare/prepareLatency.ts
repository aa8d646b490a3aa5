import type { LatencyLevel, LatencyPercentiles, LatencySeries, TailAttribution } from '@telltale/api-contract';
import { formatCount, formatDuration, formatPercent, formatPoints } from '../format';
import type { Milliseconds, Nanoseconds } from '../units';
import { nanoseconds, nanosToMillis } from '../units';

export const LEVEL_LABELS: Readonly<Record<LatencyLevel, string>> = {
  p50: 'P50',
  p90: 'P90',
  p95: 'P95',
  p99: 'P99',
  p999: 'P99.9',
};

/** A colour per series, in order (the largest group first). */
export const SERIES_COLORS = [
  '#2563eb',
  '#dc2626',
  '#16a34a',
  '#d97706',
  '#7c3aed',
  '#0891b2',
  '#db2777',
  '#65a30d',
  '#475569',
  '#ea580c',
];

export interface LineSpec {
  /** The row field holding this line's values. */
  dataKey: string;
  label: string;
  color: string;
}

export interface LatencyLines {
  /** One row per bucket start: `t` (epoch ms), `label`, and per line its value in ms (null when the group had no spans). */
  rows: Record<string, number | string | null>[];
  lines: LineSpec[];
}

/**
 * One line per group at one percentile level, over time, in milliseconds
 * (what chart axes speak). Buckets missing for a group are gaps, not zeros.
 */
export function prepareLatencyLines(
  series: LatencySeries,
  level: LatencyLevel,
  label: (ms: number) => string,
): LatencyLines {
  const lines: LineSpec[] = series.series.map((s, i) => ({
    dataKey: `s${i}`,
    label: s.key === '' ? (series.groupBy === 'run' ? 'runs' : '(none)') : s.key,
    color: SERIES_COLORS[i % SERIES_COLORS.length] ?? '#475569',
  }));
  const starts = [...new Set(series.series.flatMap((s) => s.points.map((p) => p.startUnixMs)))].sort((a, b) => a - b);
  const rows = starts.map((t) => {
    const row: Record<string, number | string | null> = { t, label: label(t) };
    series.series.forEach((s, i) => {
      const point = s.points.find((p) => p.startUnixMs === t);
      row[`s${i}`] = point === undefined || point.count === 0 ? null : nanosToMillis(point.percentilesNs[level]);
    });
    return row;
  });
  return { rows, lines };
}

/** How many groups the latency chart draws, and how many it picks them from (the most the series route answers). */
export const SLOWEST_LINES = 8;
export const LINE_CANDIDATES = 50;

export interface SlowestLines extends LatencyLines {
  /** What the chart draws: `P99 duration over time, the 8 slowest of 21 steps`. */
  title: string;
}

/**
 * The `limit` groups slowest at `level` over the whole window (their
 * percentile in `percentiles`, not in any one bucket), as lines, slowest first.
 * `series` holds the candidates: the busiest groups, so the title says when
 * there were more groups than candidates.
 */
export function prepareSlowestLines(
  series: LatencySeries,
  percentiles: LatencyPercentiles,
  level: LatencyLevel,
  label: (ms: number) => string,
  limit = SLOWEST_LINES,
): SlowestLines {
  const overall = new Map(percentiles.groups.map((g) => [`${g.service}\u0000${g.key}`, g.percentilesNs[level]]));
  const value = (s: LatencySeries['series'][number]): number =>
    overall.get(`${s.service}\u0000${s.key}`) ?? Number.NEGATIVE_INFINITY;
  const slowest = [...series.series].sort((a, b) => value(b) - value(a) || b.count - a.count).slice(0, limit);
  const title = latencyChartTitle(level, series.groupBy, {
    shown: slowest.length,
    candidates: series.series.length,
    groups: Math.max(percentiles.groups.length, series.series.length),
  });
  return { ...prepareLatencyLines({ ...series, series: slowest }, level, label), title };
}

/**
 * The latency chart's title: `P99 duration over time, by step` (every group, or
 * not known yet), `…, the 8 slowest of 21 steps`, or `…, the 8 slowest of the
 * 50 busiest steps` when there were more groups than candidates.
 */
export function latencyChartTitle(
  level: LatencyLevel,
  groupBy: string,
  counts?: { shown: number; candidates: number; groups: number },
): string {
  const what = `${LEVEL_LABELS[level]} duration over time`;
  if (counts === undefined || counts.shown >= counts.groups) return `${what}, by ${groupBy}`;
  return counts.candidates >= counts.groups
    ? `${what}, the ${counts.shown} slowest of ${formatCount(counts.groups)} ${groupBy}s`
    : `${what}, the ${counts.shown} slowest of the ${formatCount(counts.candidates)} busiest ${groupBy}s`;
}

export interface PercentileMark {
  level: LatencyLevel | 'max';
  label: string;
  ns: Nanoseconds;
  ms: Milliseconds;
  valueLabel: string;
}

/** Run-duration percentiles (p50…p99.9 and max) of the `run` group, as marks; empty when no runs. */
export function prepareRunDurationMarks(percentiles: LatencyPercentiles): PercentileMark[] {
  const group = percentiles.groups[0];
  if (group === undefined || group.count === 0) return [];
  const marks: PercentileMark[] = (['p50', 'p90', 'p95', 'p99', 'p999'] as const).map((level) => ({
    level,
    label: LEVEL_LABELS[level],
    ns: group.percentilesNs[level],
    ms: nanosToMillis(group.percentilesNs[level]),
    valueLabel: formatDuration(group.percentilesNs[level]),
  }));
  marks.push({
    level: 'max',
    label: 'Max',
    ns: group.maxNs,
    ms: nanosToMillis(group.maxNs),
    valueLabel: formatDuration(group.maxNs),
  });
  return marks;
}

export interface PercentileTableRow {
  key: string;
  count: number;
  p50: string;
  p90: string;
  p95: string;
  p99: string;
  p999: string;
  p99Ns: Nanoseconds;
}

/** Per group percentiles, slowest P99 first. */
export function preparePercentileTable(percentiles: LatencyPercentiles): PercentileTableRow[] {
  return [...percentiles.groups]
    .sort((a, b) => b.percentilesNs.p99 - a.percentilesNs.p99 || a.key.localeCompare(b.key))
    .map((g) => ({
      key: g.key === '' ? '(none)' : g.key,
      count: g.count,
      p50: formatDuration(g.percentilesNs.p50),
      p90: formatDuration(g.percentilesNs.p90),
      p95: formatDuration(g.percentilesNs.p95),
      p99: formatDuration(g.percentilesNs.p99),
      p999: formatDuration(g.percentilesNs.p999),
      p99Ns: g.percentilesNs.p99,
    }));
}

export interface TailRow {
  stepName: string;
  label: string;
  tailShare: number;
  medianShare: number;
  delta: number;
  tailLabel: string;
  medianLabel: string;
  deltaLabel: string;
  isDriver: boolean;
}

export interface TailView {
  driver: string | null;
  sentence: string;
  /** What the table rests on: `Top 10 of 22 steps by growth, from the 4 slowest runs (at or above P99) against 31 runs around the median.` */
  basis: string;
  rows: TailRow[];
  p99: Nanoseconds;
  p50: Nanoseconds;
}

/**
 * Tail attribution: each step's share of run time in the slowest runs against
 * the median runs, the steps that grow most first (at most `limit` rows).
 */
export function prepareTail(tail: TailAttribution, limit = 10): TailView {
  const rows = [...tail.steps]
    .sort((a, b) => b.delta - a.delta || b.tailShare - a.tailShare)
    .slice(0, limit)
    .map((s) => ({
      stepName: s.stepName,
      label: s.stepName === '' ? '(run overhead)' : s.stepName,
      tailShare: s.tailShare,
      medianShare: s.medianShare,
      delta: s.delta,
      tailLabel: formatPercent(s.tailShare),
      medianLabel: formatPercent(s.medianShare),
      deltaLabel: formatPoints(s.delta),
      isDriver: tail.tailDriver !== null && s.stepName === tail.tailDriver,
    }));
  const driverRow = rows.find((r) => r.isDriver);
  const sentence =
    tail.tailDriver === null || driverRow === undefined
      ? 'No step grows its share of run time in the slowest runs.'
      : `${tail.tailDriver} takes ${driverRow.tailLabel} of the time in runs at or above P99 (${formatDuration(tail.thresholdsNs.p99)}) against ${driverRow.medianLabel} in median runs.`;
  const steps = tail.steps.length;
  const which =
    rows.length < steps
      ? `Top ${rows.length} of ${formatCount(steps)} steps by growth`
      : `${steps === 1 ? 'The one step' : `All ${formatCount(steps)} steps`} by growth`;
  const slowest = tail.tailRuns === 1 ? 'slowest run' : `${formatCount(tail.tailRuns)} slowest runs`;
  const median = `${formatCount(tail.medianRuns)} ${tail.medianRuns === 1 ? 'run' : 'runs'} around the median`;
  const basis = `${which}, from the ${slowest} (at or above P99) against ${median}.`;
  return {
    driver: tail.tailDriver,
    sentence,
    basis,
    rows,
    p99: tail.thresholdsNs.p99,
    p50: nanoseconds(tail.thresholdsNs.p50),
  };
}
