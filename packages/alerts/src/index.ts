export {
  ALERT_METRICS,
  COMPARISONS,
  PERCENTILES,
  AlertRuleSpecSchema,
  AlertFiltersSchema,
  breaches,
} from './rules/AlertRule.js';
export type { AlertMetric, Comparison, Percentile, AlertRuleSpec, AlertRule, AlertFilters } from './rules/AlertRule.js';
export { measureRule, ruleFilter } from './rules/measureRule.js';
export type { Observation } from './rules/measureRule.js';
export { advance, initialState, ALERT_STATES } from './evaluation/advance.js';
export type { AlertStateName, SeriesState, Verdict, Timing, Transition, NotifyKind } from './evaluation/advance.js';
export { AlertEvaluator } from './evaluation/AlertEvaluator.js';
export type { AlertEvaluatorOptions } from './evaluation/AlertEvaluator.js';
export type { LiveAlertEvent, AlertEventSink } from './evaluation/LiveAlertEvent.js';
export { notificationId } from './evaluation/outbox.js';
export { AlertDispatcher } from './delivery/AlertDispatcher.js';
export type { AlertDispatcherOptions } from './delivery/AlertDispatcher.js';
export { DEFAULT_RETRY, backoffMs, retryAfterMs, decide } from './delivery/retryPolicy.js';
export type { RetryOptions, AttemptOutcome } from './delivery/retryPolicy.js';
export { signWebhook, generateSecret, isSecret } from './delivery/signWebhook.js';
export {
  checkUrl,
  refusalOf,
  addressRange,
  checkPolicy,
  pinnedLookup,
  systemResolver,
  SsrfError,
  STRICT_SSRF_POLICY,
} from './delivery/ssrfGuard.js';
export type { SsrfPolicy, Resolver, ResolvedAddress, CheckedUrl } from './delivery/ssrfGuard.js';
export { postWebhook } from './delivery/postWebhook.js';
export type { PostResult, PostOptions } from './delivery/postWebhook.js';
export { DESTINATION_FORMATS, formatPayload, StandardPayloadSchema, summarise } from './delivery/payloads.js';
export type { DestinationFormat, AlertNotice, StandardPayload } from './delivery/payloads.js';
export { AlertService, destinationView } from './AlertService.js';
export type { DestinationView, DestinationInput, NotificationView } from './AlertService.js';
export { WebhookReceiver } from './testing/WebhookReceiver.js';
export type { ReceivedWebhook } from './testing/WebhookReceiver.js';
