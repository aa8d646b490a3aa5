import { z } from 'zod';

/**
 * The `/api/v1/alerts` wire contract. The rule spec mirrors the server's
 * `AlertRuleSpecSchema` (packages/alerts/src/rules/AlertRule.ts): the web app
 * only talks HTTP, so it cannot import it; the form validates with this copy
 * before sending, and the server's 400 stays the final word.
 * Times are epoch milliseconds; optional values may be absent from the JSON.
 */

export const ALERT_METRICS = [
  'e2e_success',
  'step_success',
  'coordination_gap',
  'step_latency',
  'run_latency',
  'loop_rate',
  'any_loop',
  'cost_per_run',
  'total_cost',
  'failure_cause_share',
] as const;
export type AlertMetric = (typeof ALERT_METRICS)[number];

export const COMPARISONS = ['lt', 'lte', 'gt', 'gte'] as const;
export type Comparison = (typeof COMPARISONS)[number];

export const PERCENTILES = ['p50', 'p90', 'p95', 'p99'] as const;
export type Percentile = (typeof PERCENTILES)[number];

export const FAILURE_CAUSES = ['loop', 'partial_execution', 'tool_failure', 'validation_exhausted', 'llm_error', 'timeout', 'unknown'] as const;
export type FailureCause = (typeof FAILURE_CAUSES)[number];

export const DESTINATION_FORMATS = ['standard', 'slack', 'alertmanager'] as const;
export type DestinationFormat = (typeof DESTINATION_FORMATS)[number];

export const ALERT_STATES = ['ok', 'pending', 'firing', 'resolved'] as const;
export type AlertStateName = (typeof ALERT_STATES)[number];

/** Metrics that take a percentile, and those that need `filters.step`. */
export const METRICS_WITH_PERCENTILE: ReadonlySet<AlertMetric> = new Set(['step_latency', 'run_latency', 'cost_per_run']);
export const METRICS_NEEDING_STEP: ReadonlySet<AlertMetric> = new Set(['step_success', 'step_latency']);

export const FILTER_KEYS = ['service', 'agent', 'step', 'tool', 'model'] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];

const filterValue = z.string().min(1).max(256);
export const alertFiltersSchema = z
  .object({ service: filterValue.optional(), agent: filterValue.optional(), step: filterValue.optional(), tool: filterValue.optional(), model: filterValue.optional() })
  .strict();
export type AlertFilters = z.infer<typeof alertFiltersSchema>;

const labelName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'label names are letters, digits and _ (Prometheus style)');

const ruleSpecShape = {
  name: z.string().min(1, 'a rule needs a name').max(200),
  description: z.string().max(2000),
  enabled: z.boolean(),
  metric: z.enum(ALERT_METRICS),
  percentile: z.enum(PERCENTILES).optional(),
  cause: z.enum(FAILURE_CAUSES).optional(),
  comparison: z.enum(COMPARISONS),
  threshold: z.number().finite(),
  windowSeconds: z.number().int().min(10, 'at least 10s').max(31 * 86_400, 'at most 31d'),
  evaluationIntervalSeconds: z.number().int().min(1, 'at least 1s').max(86_400, 'at most 1d'),
  minSampleSize: z.number().int().min(0).max(1_000_000_000, 'at most 1,000,000,000'),
  forSeconds: z.number().int().min(0).max(7 * 86_400, 'at most 7d'),
  repeatIntervalSeconds: z.number().int().min(0).max(30 * 86_400, 'at most 30d'),
  filters: alertFiltersSchema,
  labels: z.record(labelName, z.string().max(512)),
  destinationIds: z.array(z.string().min(1).max(64)).max(20, 'at most 20 destinations'),
};

/** A rule spec as the form sends it: every field explicit (the server's defaults are the form's). */
export const alertRuleSpecSchema = z
  .object(ruleSpecShape)
  .strict()
  .superRefine((rule, ctx) => {
    if (METRICS_NEEDING_STEP.has(rule.metric) && rule.filters.step === undefined) {
      ctx.addIssue({ code: 'custom', path: ['filters', 'step'], message: `metric ${rule.metric} needs a step filter` });
    }
    if (rule.metric === 'failure_cause_share' && rule.cause === undefined) ctx.addIssue({ code: 'custom', path: ['cause'], message: 'metric failure_cause_share needs a cause' });
    if (rule.metric !== 'failure_cause_share' && rule.cause !== undefined) ctx.addIssue({ code: 'custom', path: ['cause'], message: 'cause is for failure_cause_share only' });
    if (rule.percentile !== undefined && !METRICS_WITH_PERCENTILE.has(rule.metric)) {
      ctx.addIssue({ code: 'custom', path: ['percentile'], message: `percentile is for ${[...METRICS_WITH_PERCENTILE].join(', ')} only` });
    }
    if (rule.metric === 'cost_per_run' && rule.percentile === 'p90') ctx.addIssue({ code: 'custom', path: ['percentile'], message: 'cost per run has p50, p95 and p99' });
    if (Object.keys(rule.labels).length > 32) ctx.addIssue({ code: 'custom', path: ['labels'], message: 'at most 32 labels' });
  });
export type AlertRuleSpec = z.infer<typeof alertRuleSpecSchema>;

/** A stored rule as the API answers it (parsed leniently: the server may grow fields). */
export const alertRuleSchema = z.object({
  ...ruleSpecShape,
  id: z.string(),
  projectId: z.string(),
  createdAtMs: z.number(),
  updatedAtMs: z.number(),
  // Tolerate rules stored before a field existed.
  description: z.string().default(''),
  enabled: z.boolean().default(true),
  filters: z.record(z.string(), z.string()).default({}),
  labels: z.record(z.string(), z.string()).default({}),
  destinationIds: z.array(z.string()).default([]),
});
export type AlertRule = z.infer<typeof alertRuleSchema>;

const optionalNumber = z.number().nullable().optional();

export const alertStateSchema = z.object({
  ruleId: z.string(),
  /** '' for a rule's single series; `run:<id>` for a live loop. */
  groupKey: z.string(),
  /** An unknown state (a newer server) is shown as is. */
  state: z.string(),
  episode: z.string(),
  sinceMs: z.number(),
  firedAtMs: optionalNumber,
  lastEvalAtMs: z.number(),
  lastValue: optionalNumber,
  lastSample: z.number(),
  notifySeq: z.number(),
  notifyKind: z.string(),
  lastNotifiedAtMs: optionalNumber,
  labels: z.record(z.string(), z.string()).default({}),
});
export type AlertState = z.infer<typeof alertStateSchema>;

export const alertHistoryEventSchema = z.object({
  ruleId: z.string(),
  groupKey: z.string(),
  eventId: z.string(),
  atMs: z.number(),
  fromState: z.string(),
  toState: z.string(),
  value: optionalNumber,
  threshold: z.number(),
  sample: z.number(),
  message: z.string(),
});
export type AlertHistoryEvent = z.infer<typeof alertHistoryEventSchema>;

export const destinationSchema = z.object({
  id: z.string(),
  name: z.string(),
  format: z.enum(DESTINATION_FORMATS),
  url: z.string(),
  secretPrefixes: z.array(z.string()),
  enabled: z.boolean(),
  disabledAtMs: z.number().nullable(),
  disabledReason: z.string(),
  createdAtMs: z.number(),
  updatedAtMs: z.number(),
});
export type Destination = z.infer<typeof destinationSchema>;

/** What creating a destination takes (mirrors the server's body schema). */
export const destinationInputSchema = z
  .object({
    name: z.string().min(1, 'a destination needs a name').max(200),
    url: z.url({ protocol: /^https?$/, error: 'an http(s) URL' }).max(2048),
    format: z.enum(DESTINATION_FORMATS),
  })
  .strict();
export type DestinationInput = z.infer<typeof destinationInputSchema>;

export const notificationSchema = z.object({
  notificationId: z.string(),
  destinationId: z.string(),
  ruleId: z.string(),
  groupKey: z.string(),
  /** `firing` | `resolved` | `test`. */
  kind: z.string(),
  /** `pending` | `delivered` | `failed`. */
  deliveryState: z.string(),
  attempts: z.number(),
  nextAttemptAtMs: z.number(),
  createdAtMs: z.number(),
  deliveredAtMs: z.number().nullable(),
  lastError: z.string(),
  payload: z.unknown(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const deliveryAttemptSchema = z.object({
  notificationId: z.string(),
  attempt: z.number(),
  atMs: z.number(),
  url: z.string(),
  statusCode: optionalNumber,
  /** `delivered` | `retry` | `failed` | `disabled`. */
  outcome: z.string(),
  error: z.string(),
  durationMs: z.number(),
});
export type DeliveryAttempt = z.infer<typeof deliveryAttemptSchema>;

export const attemptOutcomeSchema = z.object({ outcome: z.string(), reason: z.string().optional(), delayMs: z.number().optional() });
export type AttemptOutcome = z.infer<typeof attemptOutcomeSchema>;

export const rulesResponseSchema = z.object({ rules: z.array(alertRuleSchema) });
export const ruleResponseSchema = z.object({ rule: alertRuleSchema });
export const ruleWithStatesResponseSchema = z.object({ rule: alertRuleSchema, states: z.array(alertStateSchema) });
export const statesResponseSchema = z.object({ states: z.array(alertStateSchema) });
export const historyResponseSchema = z.object({ events: z.array(alertHistoryEventSchema), limit: z.number(), offset: z.number() });
export type HistoryPage = z.infer<typeof historyResponseSchema>;
export const destinationsResponseSchema = z.object({ destinations: z.array(destinationSchema) });
export const destinationResponseSchema = z.object({ destination: destinationSchema });
export const destinationWithSecretSchema = z.object({ destination: destinationSchema, secret: z.string() });
export type DestinationWithSecret = z.infer<typeof destinationWithSecretSchema>;
export const testResultSchema = z.object({ notification: notificationSchema, outcome: attemptOutcomeSchema, attempt: deliveryAttemptSchema });
export type TestResult = z.infer<typeof testResultSchema>;
export const notificationsResponseSchema = z.object({ notifications: z.array(notificationSchema), limit: z.number(), offset: z.number() });
export type NotificationsPage = z.infer<typeof notificationsResponseSchema>;
export const notificationResponseSchema = z.object({ notification: notificationSchema });
export const notificationDetailSchema = z.object({ notification: notificationSchema, attempts: z.array(deliveryAttemptSchema) });
export type NotificationDetail = z.infer<typeof notificationDetailSchema>;
export const deletedResponseSchema = z.object({ deleted: z.string() });
