import type {
  AlertRule,
  AlertRuleSpec,
  AlertState,
  Destination,
  DestinationInput,
  DestinationWithSecret,
  HistoryPage,
  NotificationDetail,
  NotificationsPage,
  TestResult,
} from '@telltale/api-contract';
import {
  deletedResponseSchema,
  destinationResponseSchema,
  destinationsResponseSchema,
  destinationWithSecretSchema,
  historyResponseSchema,
  notificationDetailSchema,
  notificationResponseSchema,
  notificationsResponseSchema,
  ruleResponseSchema,
  rulesResponseSchema,
  ruleWithStatesResponseSchema,
  statesResponseSchema,
  testResultSchema,
} from '@telltale/api-contract';
import type { RequestOptions } from './getJson';
import { getJson, sendJson } from './getJson';
import { API_BASE } from './runsApi';

const ALERTS = `${API_BASE}/alerts`;
const seg = encodeURIComponent;

export interface PageQuery {
  limit: number;
  offset: number;
}

export interface HistoryQuery extends PageQuery {
  ruleId?: string | undefined;
}

export interface NotificationsQuery extends PageQuery {
  ruleId?: string | undefined;
  destinationId?: string | undefined;
  state?: 'pending' | 'delivered' | 'failed' | undefined;
}

function withQuery(path: string, query: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== '') params.set(key, String(value));
  const text = params.toString();
  return text === '' ? path : `${path}?${text}`;
}

export const alertsUrls = {
  rules: () => `${ALERTS}/rules`,
  rule: (ruleId: string) => `${ALERTS}/rules/${seg(ruleId)}`,
  states: (ruleId?: string) => withQuery(`${ALERTS}/state`, { ruleId }),
  history: (q: HistoryQuery) => withQuery(`${ALERTS}/history`, { ruleId: q.ruleId, limit: q.limit, offset: q.offset }),
  destinations: () => `${ALERTS}/destinations`,
  destination: (id: string) => `${ALERTS}/destinations/${seg(id)}`,
  testDestination: (id: string) => `${ALERTS}/destinations/${seg(id)}/test`,
  rotateSecret: (id: string) => `${ALERTS}/destinations/${seg(id)}/rotate-secret`,
  notifications: (q: NotificationsQuery) =>
    withQuery(`${ALERTS}/notifications`, {
      ruleId: q.ruleId,
      destinationId: q.destinationId,
      state: q.state,
      limit: q.limit,
      offset: q.offset,
    }),
  notification: (id: string) => `${ALERTS}/notifications/${seg(id)}`,
  redeliver: (id: string) => `${ALERTS}/notifications/${seg(id)}/redeliver`,
};

// ── rules ──
export async function fetchAlertRules(options?: RequestOptions): Promise<AlertRule[]> {
  return (await getJson(alertsUrls.rules(), rulesResponseSchema, options)).rules;
}

export function fetchAlertRule(
  ruleId: string,
  options?: RequestOptions,
): Promise<{ rule: AlertRule; states: AlertState[] }> {
  return getJson(alertsUrls.rule(ruleId), ruleWithStatesResponseSchema, options);
}

export async function createAlertRule(spec: AlertRuleSpec, options?: RequestOptions): Promise<AlertRule> {
  return (await sendJson('POST', alertsUrls.rules(), spec, ruleResponseSchema, options)).rule;
}

export async function updateAlertRule(
  ruleId: string,
  spec: AlertRuleSpec,
  options?: RequestOptions,
): Promise<AlertRule> {
  return (await sendJson('PUT', alertsUrls.rule(ruleId), spec, ruleResponseSchema, options)).rule;
}

export async function deleteAlertRule(ruleId: string, options?: RequestOptions): Promise<void> {
  await sendJson('DELETE', alertsUrls.rule(ruleId), undefined, deletedResponseSchema, options);
}

// ── state and history ──
export async function fetchAlertStates(ruleId?: string, options?: RequestOptions): Promise<AlertState[]> {
  return (await getJson(alertsUrls.states(ruleId), statesResponseSchema, options)).states;
}

export function fetchAlertHistory(query: HistoryQuery, options?: RequestOptions): Promise<HistoryPage> {
  return getJson(alertsUrls.history(query), historyResponseSchema, options);
}

// ── destinations ──
export async function fetchDestinations(options?: RequestOptions): Promise<Destination[]> {
  return (await getJson(alertsUrls.destinations(), destinationsResponseSchema, options)).destinations;
}

export function createDestination(input: DestinationInput, options?: RequestOptions): Promise<DestinationWithSecret> {
  return sendJson('POST', alertsUrls.destinations(), input, destinationWithSecretSchema, options);
}

export interface DestinationChange {
  name?: string;
  url?: string;
  enabled?: boolean;
}

export async function updateDestination(
  id: string,
  change: DestinationChange,
  options?: RequestOptions,
): Promise<Destination> {
  return (await sendJson('PUT', alertsUrls.destination(id), change, destinationResponseSchema, options)).destination;
}

export async function deleteDestination(id: string, options?: RequestOptions): Promise<void> {
  await sendJson('DELETE', alertsUrls.destination(id), undefined, deletedResponseSchema, options);
}

export function sendTestNotification(id: string, options?: RequestOptions): Promise<TestResult> {
  return sendJson('POST', alertsUrls.testDestination(id), undefined, testResultSchema, options);
}

/** `keep`: previous secrets that go on signing until the next rotation. */
export function rotateDestinationSecret(
  id: string,
  keep: number,
  options?: RequestOptions,
): Promise<DestinationWithSecret> {
  return sendJson('POST', alertsUrls.rotateSecret(id), { keep }, destinationWithSecretSchema, options);
}

// ── delivery log ──
export function fetchNotifications(query: NotificationsQuery, options?: RequestOptions): Promise<NotificationsPage> {
  return getJson(alertsUrls.notifications(query), notificationsResponseSchema, options);
}

export function fetchNotification(id: string, options?: RequestOptions): Promise<NotificationDetail> {
  return getJson(alertsUrls.notification(id), notificationDetailSchema, options);
}

export async function redeliverNotification(id: string, options?: RequestOptions): Promise<void> {
  await sendJson('POST', alertsUrls.redeliver(id), undefined, notificationResponseSchema, options);
}
