import {
  ALERT_METRIC_UNIT,
  DESTINATION_FORMATS,
  type AlertMetric,
  type DestinationFormat,
} from '@telltale/api-contract';
import { z } from 'zod';
import { COMPARISON_SYMBOL, type AlertRule } from '../rules/AlertRule.js';

/** Payload formats a destination can take (the API's list). */
export { DESTINATION_FORMATS };
export type { DestinationFormat };

/** One alert notification, before it is shaped for a destination's format. */
export interface AlertNotice {
  status: 'firing' | 'resolved';
  /** True for "send test notification". */
  test: boolean;
  projectId: string;
  rule: Pick<
    AlertRule,
    'id' | 'name' | 'description' | 'metric' | 'comparison' | 'threshold' | 'windowSeconds' | 'filters' | 'labels'
  > &
    Partial<Pick<AlertRule, 'percentile' | 'cause'>>;
  groupKey: string;
  /** Extra labels of the group (e.g. a looping run's id). */
  groupLabels: Record<string, string>;
  value: number | undefined;
  sampleSize: number;
  episode: string;
  sequence: number;
  startsAtMs: number;
  /** Resolved notifications: when it resolved. */
  endsAtMs: number | undefined;
  /** The window the value was measured over, ending at the evaluation. */
  evaluatedAtMs: number;
  dashboardUrl: string;
  summary: string;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** The labels of a notice: the rule's, the group's, and identity labels. */
export function noticeLabels(n: AlertNotice): Record<string, string> {
  return {
    ...n.rule.labels,
    ...n.groupLabels,
    alertname: n.rule.name,
    rule_id: n.rule.id,
    project: n.projectId,
    metric: n.rule.metric,
  };
}

/** The `standard` payload: what a receiver of Telltale webhooks parses (schema below, versioned). */
export const StandardPayloadSchema = z.object({
  type: z.enum(['alert.firing', 'alert.resolved', 'alert.test']),
  version: z.literal(1),
  status: z.enum(['firing', 'resolved']),
  project: z.string(),
  rule: z.object({ id: z.string(), name: z.string(), description: z.string(), metric: z.string() }).loose(),
  groupKey: z.string(),
  labels: z.record(z.string(), z.string()),
  value: z.number().nullable(),
  sampleSize: z.number(),
  threshold: z.number(),
  comparison: z.string(),
  window: z.object({ seconds: z.number(), from: z.string(), to: z.string() }),
  startsAt: z.string(),
  endsAt: z.string().nullable(),
  episode: z.string(),
  sequence: z.number(),
  summary: z.string(),
  dashboardUrl: z.string(),
});
export type StandardPayload = z.infer<typeof StandardPayloadSchema>;

function standardPayload(n: AlertNotice): StandardPayload {
  return {
    type: n.test ? 'alert.test' : n.status === 'firing' ? 'alert.firing' : 'alert.resolved',
    version: 1,
    status: n.status,
    project: n.projectId,
    rule: { ...n.rule, filters: n.rule.filters },
    groupKey: n.groupKey,
    labels: noticeLabels(n),
    value: n.value ?? null,
    sampleSize: n.sampleSize,
    threshold: n.rule.threshold,
    comparison: n.rule.comparison,
    window: {
      seconds: n.rule.windowSeconds,
      from: iso(n.evaluatedAtMs - n.rule.windowSeconds * 1000),
      to: iso(n.evaluatedAtMs),
    },
    startsAt: iso(n.startsAtMs),
    endsAt: n.endsAtMs === undefined ? null : iso(n.endsAtMs),
    episode: n.episode,
    sequence: n.sequence,
    summary: n.summary,
    dashboardUrl: n.dashboardUrl,
  };
}

/** Slack incoming webhook: `text` with a link (mrkdwn). */
function slackPayload(n: AlertNotice): Record<string, unknown> {
  const icon = n.status === 'firing' ? ':rotating_light:' : ':white_check_mark:';
  const tag = n.test ? 'TEST' : n.status.toUpperCase();
  return { text: `${icon} [${tag}] ${n.rule.name}: ${n.summary} <${n.dashboardUrl}|open in Telltale>` };
}

/** Prometheus Alertmanager webhook receiver format (version 4), one alert per notification. */
function alertmanagerPayload(n: AlertNotice): Record<string, unknown> {
  const labels = noticeLabels(n);
  const annotations = {
    summary: n.summary,
    description: n.rule.description,
    value: n.value === undefined ? '' : String(n.value),
    threshold: String(n.rule.threshold),
  };
  return {
    version: '4',
    groupKey: `${n.rule.id}/${n.groupKey}`,
    truncatedAlerts: 0,
    status: n.status,
    receiver: 'telltale',
    groupLabels: { alertname: n.rule.name },
    commonLabels: labels,
    commonAnnotations: annotations,
    externalURL: n.dashboardUrl,
    alerts: [
      {
        status: n.status,
        labels,
        annotations,
        startsAt: iso(n.startsAtMs),
        endsAt: n.endsAtMs === undefined ? '0001-01-01T00:00:00Z' : iso(n.endsAtMs),
        generatorURL: n.dashboardUrl,
        fingerprint: n.episode,
      },
    ],
  };
}

/** The exact body a destination of `format` receives for a notice. */
export function formatPayload(format: DestinationFormat, n: AlertNotice): string {
  switch (format) {
    case 'standard':
      return JSON.stringify(standardPayload(n));
    case 'slack':
      return JSON.stringify(slackPayload(n));
    case 'alertmanager':
      return JSON.stringify(alertmanagerPayload(n));
  }
}

/** One line saying what is wrong, in the metric's unit: `e2e_success 62% < 90% over 1h (n = 40)`. */
export function summarise(n: Pick<AlertNotice, 'rule' | 'value' | 'sampleSize' | 'status'>): string {
  const metric = n.rule.metric;
  const value = n.value === undefined ? 'no value' : valueText(metric, n.value);
  const op =
    n.status === 'firing' ? COMPARISON_SYMBOL[n.rule.comparison] : `no longer ${COMPARISON_SYMBOL[n.rule.comparison]}`;
  const what = [n.rule.metric, n.rule.percentile, n.rule.cause, n.rule.filters.step]
    .filter((x) => x !== undefined)
    .join(' ');
  const threshold = valueText(metric, n.rule.threshold);
  return `${what} ${value} ${op} ${threshold} over ${windowText(n.rule.windowSeconds)} (n = ${n.sampleSize})`;
}

/** A value as people read it: 62.5%, −3.2 pts (a gap), 850 ms / 56.4 s / 12.5 min, $0.0231, 3. */
export function valueText(metric: AlertMetric, v: number): string {
  const short = (x: number): string => String(Number(x.toPrecision(3)));
  switch (ALERT_METRIC_UNIT[metric]) {
    case 'fraction':
      return metric === 'coordination_gap' ? `${v > 0 ? '+' : ''}${short(v * 100)} pts` : `${short(v * 100)}%`;
    case 'milliseconds':
      return v < 1000 ? `${short(v)} ms` : v < 60_000 ? `${short(v / 1000)} s` : `${short(v / 60_000)} min`;
    case 'usd':
      return `$${v >= 1 ? v.toFixed(2) : short(v)}`;
    case 'count':
      return short(v);
  }
}

/** A window in its largest whole unit: 1h, 10m, 90s, 2d. */
function windowText(seconds: number): string {
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3600],
    ['m', 60],
  ] as const)
    if (seconds % size === 0) return `${seconds / size}${unit}`;
  return `${seconds}s`;
}
