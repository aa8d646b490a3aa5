import { type FailureCause, FAILURE_CAUSES } from '@telltale/semconv';
import type {
  AlertMetric,
  AlertRule,
  AlertRuleSpec,
  Comparison,
  AlertFilterKey,
  Percentile,
} from '@telltale/api-contract';
import { alertRuleSpecSchema, ALERT_FILTER_KEYS, METRICS_WITH_PERCENTILE, PERCENTILES } from '@telltale/api-contract';
import { formatSeconds, parseSecondsInput } from './prepareAlertValues';

/**
 * The rule form's state: what the inputs hold, as typed. `toRuleSpec` turns
 * it into the spec the API takes, validated with the same shape as the
 * server's, and names the field of every problem.
 */
export interface RuleFormValues {
  name: string;
  description: string;
  enabled: boolean;
  metric: AlertMetric;
  /** '' = the server's default (p95). */
  percentile: Percentile | '';
  cause: FailureCause | '';
  comparison: Comparison;
  threshold: string;
  /** Durations as typed: `1h`, `90s`, `10m`, or plain seconds. */
  window: string;
  interval: string;
  minSamples: string;
  forDuration: string;
  repeat: string;
  filters: Record<AlertFilterKey, string>;
  /** One `name=value` per line. */
  labels: string;
  destinationIds: string[];
}

export type RuleFormField =
  | 'name'
  | 'description'
  | 'metric'
  | 'percentile'
  | 'cause'
  | 'comparison'
  | 'threshold'
  | 'window'
  | 'interval'
  | 'minSamples'
  | 'forDuration'
  | 'repeat'
  | `filters.${AlertFilterKey}`
  | 'labels'
  | 'destinationIds'
  | 'form';

export type RuleFormErrors = Partial<Record<RuleFormField, string>>;

export type RuleFormResult = { ok: true; spec: AlertRuleSpec } | { ok: false; errors: RuleFormErrors };

const EMPTY_FILTERS: Record<AlertFilterKey, string> = { service: '', agent: '', step: '', tool: '', model: '' };

/** A new rule: the server's defaults, and a threshold that suits the default metric. */
export const DEFAULT_RULE_FORM: RuleFormValues = {
  name: '',
  description: '',
  enabled: true,
  metric: 'e2e_success',
  percentile: '',
  cause: '',
  comparison: 'lt',
  threshold: '0.8',
  window: '1h',
  interval: '1m',
  minSamples: '1',
  forDuration: '0s',
  repeat: '4h',
  filters: EMPTY_FILTERS,
  labels: '',
  destinationIds: [],
};

/** The form filled with a stored rule, for editing. */
export function ruleToFormValues(rule: AlertRule): RuleFormValues {
  const filters = { ...EMPTY_FILTERS };
  for (const key of ALERT_FILTER_KEYS) filters[key] = rule.filters[key] ?? '';
  return {
    name: rule.name,
    description: rule.description,
    enabled: rule.enabled,
    metric: rule.metric,
    percentile: rule.percentile ?? '',
    cause: rule.cause ?? '',
    comparison: rule.comparison,
    threshold: String(rule.threshold),
    window: formatSeconds(rule.windowSeconds),
    interval: formatSeconds(rule.evaluationIntervalSeconds),
    minSamples: String(rule.minSampleSize),
    forDuration: formatSeconds(rule.forSeconds),
    repeat: formatSeconds(rule.repeatIntervalSeconds),
    filters,
    labels: Object.entries(rule.labels)
      .map(([k, v]) => `${k}=${v}`)
      .join('\n'),
    destinationIds: [...rule.destinationIds],
  };
}

/** Which percentiles the metric offers ([] when it takes none). */
export function percentileOptions(metric: AlertMetric): readonly Percentile[] {
  if (!METRICS_WITH_PERCENTILE.has(metric)) return [];
  return metric === 'cost_per_run' ? PERCENTILES.filter((p) => p !== 'p90') : PERCENTILES;
}

export function needsCause(metric: AlertMetric): boolean {
  return metric === 'failure_cause_share';
}

export function isFailureCause(value: string): value is FailureCause {
  return (FAILURE_CAUSES as readonly string[]).includes(value);
}

// The server's label-name rule; checked here so the message names the label (zod's record-key error does not).
const LABEL_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** `name=value` lines → labels. */
function parseLabels(text: string): { labels: Record<string, string> } | { error: string } {
  const labels: Record<string, string> = {};
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    const eq = line.indexOf('=');
    if (eq <= 0) return { error: `"${line}" is not name=value` };
    const name = line.slice(0, eq).trim();
    if (!LABEL_NAME.test(name))
      return { error: `label name "${name}": letters, digits and _, not starting with a digit (Prometheus style)` };
    if (name in labels) return { error: `label ${name} appears twice` };
    labels[name] = line.slice(eq + 1).trim();
  }
  return { labels };
}

const SPEC_FIELD: Readonly<Record<string, RuleFormField>> = {
  name: 'name',
  description: 'description',
  metric: 'metric',
  percentile: 'percentile',
  cause: 'cause',
  comparison: 'comparison',
  threshold: 'threshold',
  windowSeconds: 'window',
  evaluationIntervalSeconds: 'interval',
  minSampleSize: 'minSamples',
  forSeconds: 'forDuration',
  repeatIntervalSeconds: 'repeat',
  labels: 'labels',
  destinationIds: 'destinationIds',
};

/** The form field a schema issue's path points at. */
function fieldOf(path: readonly PropertyKey[]): RuleFormField {
  const [head, sub] = path;
  if (head === 'filters')
    return typeof sub === 'string' && (ALERT_FILTER_KEYS as readonly string[]).includes(sub)
      ? (`filters.${sub}` as RuleFormField)
      : 'form';
  return (typeof head === 'string' ? SPEC_FIELD[head] : undefined) ?? 'form';
}

export function toRuleSpec(values: RuleFormValues): RuleFormResult {
  const errors: RuleFormErrors = {};
  const seconds = (field: RuleFormField, text: string): number => {
    const parsed = parseSecondsInput(text);
    if (parsed === undefined) errors[field] = 'a duration such as 90s, 10m, 1h or 2d';
    return parsed ?? 0;
  };
  const thresholdText = values.threshold.trim();
  const threshold = thresholdText === '' ? Number.NaN : Number(thresholdText);
  if (!Number.isFinite(threshold)) errors.threshold = 'a number';
  const minSamplesText = values.minSamples.trim();
  const minSampleSize = /^\d+$/.test(minSamplesText) ? Number(minSamplesText) : Number.NaN;
  if (Number.isNaN(minSampleSize)) errors.minSamples = 'a whole number';
  const labels = parseLabels(values.labels);
  if ('error' in labels) errors.labels = labels.error;

  const filters: Partial<Record<AlertFilterKey, string>> = {};
  for (const key of ALERT_FILTER_KEYS) {
    const value = values.filters[key].trim();
    if (value !== '') filters[key] = value;
  }
  const candidate = {
    name: values.name.trim(),
    description: values.description.trim(),
    enabled: values.enabled,
    metric: values.metric,
    ...(values.percentile !== '' && percentileOptions(values.metric).includes(values.percentile)
      ? { percentile: values.percentile }
      : {}),
    ...(values.cause !== '' && needsCause(values.metric) ? { cause: values.cause } : {}),
    comparison: values.comparison,
    threshold,
    windowSeconds: seconds('window', values.window),
    evaluationIntervalSeconds: seconds('interval', values.interval),
    minSampleSize,
    forSeconds: seconds('forDuration', values.forDuration),
    repeatIntervalSeconds: seconds('repeat', values.repeat),
    filters,
    labels: 'labels' in labels ? labels.labels : {},
    destinationIds: values.destinationIds,
  };
  const parsed = alertRuleSpecSchema.safeParse(candidate);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = fieldOf(issue.path);
      errors[field] ??= field === 'form' ? `${issue.path.join('.')}: ${issue.message}` : issue.message;
    }
  }
  if (Object.keys(errors).length > 0 || !parsed.success) return { ok: false, errors };
  return { ok: true, spec: parsed.data };
}
