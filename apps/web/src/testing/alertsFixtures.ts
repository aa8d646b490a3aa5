import type {
  AlertHistoryEvent,
  AlertRule,
  AlertState,
  DeliveryAttempt,
  Destination,
  Notification,
} from '@telltale/api-contract';
import {
  alertHistoryEventSchema,
  alertRuleSchema,
  alertStateSchema,
  deliveryAttemptSchema,
  destinationSchema,
  notificationSchema,
} from '@telltale/api-contract';

/**
 * Alerts API JSON as the server sends it (absent optional values left out,
 * like `JSON.stringify` does), parsed through the real schemas.
 */
export const MS0 = 1_700_000_000_000;

export function ruleJson(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'rule_1',
    projectId: 'default',
    name: 'checkout success',
    description: 'page the payments team',
    enabled: true,
    metric: 'e2e_success',
    comparison: 'lt',
    threshold: 0.8,
    windowSeconds: 600,
    evaluationIntervalSeconds: 60,
    minSampleSize: 5,
    forSeconds: 0,
    repeatIntervalSeconds: 14_400,
    filters: { agent: 'checkout' },
    labels: { team: 'payments' },
    destinationIds: ['dst_1'],
    createdAtMs: MS0,
    updatedAtMs: MS0,
    ...overrides,
  };
}

export const rule = (overrides: Record<string, unknown> = {}): AlertRule => alertRuleSchema.parse(ruleJson(overrides));

export function state(overrides: Record<string, unknown> = {}): AlertState {
  return alertStateSchema.parse({
    projectId: 'default',
    ruleId: 'rule_1',
    groupKey: '',
    state: 'ok',
    episode: 'ep_1',
    sinceMs: MS0,
    lastEvalAtMs: MS0 + 60_000,
    lastValue: 0.9,
    lastSample: 20,
    notifySeq: 0,
    notifyKind: '',
    labels: {},
    ...overrides,
  });
}

export function historyEvent(overrides: Record<string, unknown> = {}): AlertHistoryEvent {
  return alertHistoryEventSchema.parse({
    projectId: 'default',
    ruleId: 'rule_1',
    groupKey: '',
    eventId: 'ev_1',
    atMs: MS0,
    fromState: 'ok',
    toState: 'firing',
    value: 0.4,
    threshold: 0.8,
    sample: 10,
    message: 'checkout success: 40% < 80%',
    ...overrides,
  });
}

export function destination(overrides: Record<string, unknown> = {}): Destination {
  return destinationSchema.parse({
    id: 'dst_1',
    name: 'on-call',
    format: 'standard',
    url: 'https://hooks.example.com/t',
    secretPrefixes: ['whsec_abcd…'],
    enabled: true,
    disabledAtMs: null,
    disabledReason: '',
    createdAtMs: MS0,
    updatedAtMs: MS0,
    ...overrides,
  });
}

export function notification(overrides: Record<string, unknown> = {}): Notification {
  return notificationSchema.parse({
    projectId: 'default',
    notificationId: 'msg_1',
    destinationId: 'dst_1',
    ruleId: 'rule_1',
    groupKey: '',
    kind: 'firing',
    deliveryState: 'delivered',
    attempts: 1,
    nextAttemptAtMs: MS0,
    createdAtMs: MS0,
    deliveredAtMs: MS0 + 120,
    lastError: '',
    payload: { status: 'firing' },
    ...overrides,
  });
}

export function attempt(overrides: Record<string, unknown> = {}): DeliveryAttempt {
  return deliveryAttemptSchema.parse({
    projectId: 'default',
    notificationId: 'msg_1',
    attempt: 1,
    atMs: MS0,
    url: 'https://hooks.example.com/t',
    statusCode: 200,
    outcome: 'delivered',
    error: '',
    durationMs: 12.4,
    ...overrides,
  });
}
