import { z } from 'zod';
import { DESTINATION_FORMATS, alertRuleSpecSchema } from './alertRules.js';
import { TimeParam, pageQuery } from './queryParams.js';

/**
 * `/alerts/…`: rules, their state and history, destinations and the delivery
 * log. Times are epoch milliseconds; optional values may be absent from the JSON.
 */

const Id = (what: string) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .describe(what);
export const RuleParams = z.object({ ruleId: Id('rule id (rule_…)') }).strict();
export const DestinationParams = z.object({ destinationId: Id('destination id (dst_…)') }).strict();
export const NotificationParams = z.object({ notificationId: Id('notification id = webhook-id (msg_…)') }).strict();

export const AlertStateQuery = z.object({ ruleId: Id('only this rule').optional() }).strict();
export const AlertHistoryQuery = z
  .object({
    ruleId: Id('only this rule').optional(),
    from: TimeParam.optional().describe('unix ms or ISO-8601'),
    to: TimeParam.optional().describe('unix ms or ISO-8601'),
    ...pageQuery(1000, 100),
  })
  .strict();
export const NOTIFICATION_DELIVERY_STATES = ['pending', 'delivered', 'failed'] as const;
export const NotificationsQuery = z
  .object({
    destinationId: Id('only this destination').optional(),
    ruleId: Id('only this rule').optional(),
    state: z.enum(NOTIFICATION_DELIVERY_STATES).optional().describe('delivery state'),
    ...pageQuery(1000, 100),
  })
  .strict();

const DestinationUrl = z
  .url({ protocol: /^https?$/, error: 'an http(s) URL' })
  .max(2048)
  .describe('http(s) URL; checked against the SSRF guard when saved and at every send');
/** What creating a destination takes (the dashboard's form checks the same). */
export const destinationInputSchema = z
  .object({
    name: z.string().min(1, 'a destination needs a name').max(200),
    url: DestinationUrl,
    format: z
      .enum(DESTINATION_FORMATS)
      .default('standard')
      .describe('standard (Telltale JSON) | slack (incoming webhook) | alertmanager (webhook receiver v4)'),
    secret: z
      .string()
      .max(200)
      .optional()
      .describe('a whsec_… signing secret to use (default: a new one, returned once)'),
  })
  .strict();
export type DestinationInput = z.input<typeof destinationInputSchema>;
export const destinationChangeSchema = z
  .object({
    name: z.string().min(1).max(200).optional(),
    url: DestinationUrl.optional(),
    format: z.enum(DESTINATION_FORMATS).optional(),
    enabled: z.boolean().optional().describe('true re-enables a destination disabled by a 410'),
  })
  .strict();
export type DestinationChange = z.input<typeof destinationChangeSchema>;
export const rotateSecretSchema = z
  .object({
    keep: z.number().int().min(0).max(4).default(1).describe('previous secrets that keep signing (newest first)'),
  })
  .strict();

/** A stored rule as the API answers it. */
export const alertRuleSchema = z.object({
  ...alertRuleSpecSchema.shape,
  id: z.string(),
  projectId: z.string(),
  createdAtMs: z.number(),
  updatedAtMs: z.number(),
  // Tolerate rules stored before a field existed.
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
  /** `whsec_abcd…` of each signing secret, newest first. */
  secretPrefixes: z.array(z.string()),
  enabled: z.boolean(),
  disabledAtMs: z.number().nullable(),
  disabledReason: z.string(),
  createdAtMs: z.number(),
  updatedAtMs: z.number(),
});
export type Destination = z.infer<typeof destinationSchema>;

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
  /** The payload as sent (parsed JSON). */
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

export const attemptOutcomeSchema = z.object({
  outcome: z.string(),
  reason: z.string().optional(),
  delayMs: z.number().optional(),
});
export type AttemptOutcome = z.infer<typeof attemptOutcomeSchema>;

export const rulesResponseSchema = z.object({ rules: z.array(alertRuleSchema) });
export const ruleResponseSchema = z.object({ rule: alertRuleSchema });
export const ruleWithStatesResponseSchema = z.object({ rule: alertRuleSchema, states: z.array(alertStateSchema) });
export const statesResponseSchema = z.object({ states: z.array(alertStateSchema) });
export const historyResponseSchema = z.object({
  events: z.array(alertHistoryEventSchema),
  limit: z.number(),
  offset: z.number(),
});
export type HistoryPage = z.infer<typeof historyResponseSchema>;
export const destinationsResponseSchema = z.object({ destinations: z.array(destinationSchema) });
export const destinationResponseSchema = z.object({ destination: destinationSchema });
export const destinationWithSecretSchema = z.object({ destination: destinationSchema, secret: z.string() });
export type DestinationWithSecret = z.infer<typeof destinationWithSecretSchema>;
export const testResultSchema = z.object({
  notification: notificationSchema,
  outcome: attemptOutcomeSchema,
  attempt: deliveryAttemptSchema,
});
export type TestResult = z.infer<typeof testResultSchema>;
export const notificationsResponseSchema = z.object({
  notifications: z.array(notificationSchema),
  limit: z.number(),
  offset: z.number(),
});
export type NotificationsPage = z.infer<typeof notificationsResponseSchema>;
export const notificationResponseSchema = z.object({ notification: notificationSchema });
export const notificationDetailSchema = z.object({
  notification: notificationSchema,
  attempts: z.array(deliveryAttemptSchema),
});
export type NotificationDetail = z.infer<typeof notificationDetailSchema>;
export const deletedResponseSchema = z.object({ deleted: z.string() });
