import { ALERT_METRIC_UNIT, type AlertMetric, type AlertMetricUnit, type Comparison } from '@telltale/api-contract';
import { formatCount, formatDuration, formatPercent, formatUsd } from '../format';
import { fraction, NS_PER_MS, nanoseconds, usd } from '../units';

/**
 * How alert values read: each metric's unit (the rule spec's, ALERT_METRIC_UNIT)
 * decides the formatting of its values and thresholds.
 */
const LABEL: Readonly<Record<AlertMetric, string>> = {
  e2e_success: 'End-to-end success',
  step_success: 'Step eventual success',
  coordination_gap: 'Coordination gap',
  step_latency: 'Step latency',
  run_latency: 'Run latency',
  loop_rate: 'Loop rate',
  any_loop: 'Any loop',
  cost_per_run: 'Cost per run',
  total_cost: 'Total cost',
  failure_cause_share: 'Failure cause share',
};

export const METRIC_INFO: Readonly<Record<AlertMetric, { label: string; unit: AlertMetricUnit }>> = Object.fromEntries(
  (Object.keys(LABEL) as AlertMetric[]).map((m) => [m, { label: LABEL[m], unit: ALERT_METRIC_UNIT[m] }]),
) as Record<AlertMetric, { label: string; unit: AlertMetricUnit }>;

export const COMPARISON_INFO: Readonly<Record<Comparison, { symbol: string; label: string }>> = {
  lt: { symbol: '<', label: 'below (<)' },
  lte: { symbol: '≤', label: 'at or below (≤)' },
  gt: { symbol: '>', label: 'above (>)' },
  gte: { symbol: '≥', label: 'at or above (≥)' },
};

/** What the threshold box takes for a metric (the API's unit, never a converted one). */
export function thresholdHint(metric: AlertMetric): string {
  switch (METRIC_INFO[metric].unit) {
    case 'fraction':
      return 'a fraction: 0.8 = 80%';
    case 'milliseconds':
      return 'milliseconds';
    case 'usd':
      return 'US dollars';
    case 'count':
      return 'runs';
  }
}

/** A value in the metric's unit, readable: `40%`, `1.2 s`, `$0.42`, `3`; `–` when unknown. */
export function formatAlertValue(metric: AlertMetric, value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  switch (METRIC_INFO[metric].unit) {
    case 'fraction':
      return formatPercent(fraction(value));
    case 'milliseconds':
      return formatDuration(nanoseconds(value * NS_PER_MS));
    case 'usd':
      return formatUsd(usd(value));
    case 'count':
      return Number.isInteger(value) ? formatCount(value) : String(value);
  }
}

/** `e2e_success < 80%` style condition, with the percentile or cause when the metric has one. */
export function describeCondition(rule: {
  metric: AlertMetric;
  comparison: Comparison;
  threshold: number;
  percentile?: string | undefined;
  cause?: string | undefined;
}): string {
  const qualifier = rule.percentile ?? rule.cause;
  const metric = `${METRIC_INFO[rule.metric].label}${qualifier ? ` (${qualifier})` : ''}`;
  return `${metric} ${COMPARISON_INFO[rule.comparison].symbol} ${formatAlertValue(rule.metric, rule.threshold)}`;
}

const SECONDS_PER: ReadonlyArray<readonly [string, number]> = [
  ['d', 86_400],
  ['h', 3_600],
  ['m', 60],
  ['s', 1],
];

/** Seconds as the shortest exact `1h 30m` / `10m` / `45s` / `0s`. */
export function formatSeconds(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '–';
  if (seconds === 0) return '0s';
  const parts: string[] = [];
  let rest = Math.round(seconds);
  for (const [unit, size] of SECONDS_PER) {
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)}${unit}`);
      rest %= size;
    }
  }
  return parts.join(' ');
}

/**
 * Reads a duration typed in the form: `90`, `90s`, `10m`, `1h 30m`, `2d`
 * (plain numbers are seconds). `undefined` when it is not one.
 */
export function parseSecondsInput(text: string): number | undefined {
  const trimmed = text.trim().toLowerCase();
  if (trimmed === '') return undefined;
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const re = /(\d+(?:\.\d+)?)\s*(d|h|m|s)\s*/gy;
  let total = 0;
  let matched = 0;
  for (let m = re.exec(trimmed); m !== null; m = re.exec(trimmed)) {
    const size = SECONDS_PER.find(([unit]) => unit === m?.[2])?.[1] ?? 0;
    total += Number(m[1]) * size;
    matched = re.lastIndex;
  }
  if (matched !== trimmed.length) return undefined;
  return Math.round(total);
}
