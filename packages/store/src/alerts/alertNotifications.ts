import type { ClickHouseClient } from '@clickhouse/client';
import { msToDateTime64, nextVersionStamp } from '../versionStamp.js';
import { insertRows, num, optNum, optTime, selectRows, type Num } from './alertRows.js';

/**
 * One notification to one destination: the outbox row. `notificationId` is
 * the `webhook-id` every attempt sends; `body` is the exact payload, so
 * retries and redeliveries send the same bytes.
 */
export interface StoredNotification {
  projectId: string;
  notificationId: string;
  destinationId: string;
  ruleId: string;
  groupKey: string;
  /** `firing` | `resolved` | `test`. */
  kind: string;
  body: string;
  /** `pending` (to send) | `delivered` | `failed` (given up, or the destination is gone). */
  deliveryState: string;
  attempts: number;
  nextAttemptAtMs: number;
  createdAtMs: number;
  deliveredAtMs: number | undefined;
  lastError: string;
}

/** One HTTP attempt of a notification, for the delivery log. */
export interface DeliveryAttempt {
  projectId: string;
  notificationId: string;
  attempt: number;
  atMs: number;
  url: string;
  statusCode: number | undefined;
  /** `delivered` | `retry` | `failed` | `disabled`. */
  outcome: string;
  error: string;
  durationMs: number;
}

interface NotificationRow {
  project_id: string;
  notification_id: string;
  destination_id: string;
  rule_id: string;
  group_key: string;
  kind: string;
  body: string;
  delivery_state: string;
  attempts: Num;
  next_ms: Num;
  created_ms: Num;
  delivered_ms: Num | null;
  last_error: string;
}

const SELECT = `SELECT project_id, notification_id, destination_id, rule_id, group_key, kind, body, delivery_state, attempts,
       toUnixTimestamp64Milli(next_attempt_at) AS next_ms, toUnixTimestamp64Milli(created_at) AS created_ms,
       toUnixTimestamp64Milli(delivered_at) AS delivered_ms, last_error
FROM alert_notifications FINAL`;

function fromRow(r: NotificationRow): StoredNotification {
  return {
    projectId: r.project_id,
    notificationId: r.notification_id,
    destinationId: r.destination_id,
    ruleId: r.rule_id,
    groupKey: r.group_key,
    kind: r.kind,
    body: r.body,
    deliveryState: r.delivery_state,
    attempts: num(r.attempts),
    nextAttemptAtMs: num(r.next_ms),
    createdAtMs: num(r.created_ms),
    deliveredAtMs: optNum(r.delivered_ms),
    lastError: r.last_error,
  };
}

/** Writes outbox rows (new ones, or a newer version of existing ones). */
export async function putNotifications(
  client: ClickHouseClient,
  notifications: readonly StoredNotification[],
): Promise<void> {
  await insertRows(
    client,
    'alert_notifications',
    notifications.map((n) => ({
      project_id: n.projectId,
      notification_id: n.notificationId,
      destination_id: n.destinationId,
      rule_id: n.ruleId,
      group_key: n.groupKey,
      kind: n.kind,
      body: n.body,
      delivery_state: n.deliveryState,
      attempts: n.attempts,
      next_attempt_at: msToDateTime64(n.nextAttemptAtMs),
      created_at: msToDateTime64(n.createdAtMs),
      delivered_at: optTime(n.deliveredAtMs),
      last_error: n.lastError,
      version: nextVersionStamp(),
    })),
  );
}

/** Which of these notification ids the outbox has already (any state). */
export async function existingNotificationIds(
  client: ClickHouseClient,
  projectId: string,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await selectRows<{ notification_id: string }>(
    client,
    'SELECT DISTINCT notification_id FROM alert_notifications WHERE project_id = {projectId:String} AND notification_id IN {ids:Array(String)}',
    { projectId, ids },
  );
  return new Set(rows.map((r) => r.notification_id));
}

/** Pending notifications due at `nowMs`, of every project, oldest first (the dispatcher's queue). */
export async function listDueNotifications(
  client: ClickHouseClient,
  nowMs: number,
  limit: number,
): Promise<StoredNotification[]> {
  const rows = await selectRows<NotificationRow>(
    client,
    `${SELECT} WHERE delivery_state = 'pending' AND next_attempt_at <= fromUnixTimestamp64Milli({nowMs:Int64}) ORDER BY next_attempt_at, notification_id LIMIT {limit:UInt32}`,
    { nowMs, limit },
  );
  return rows.map(fromRow);
}

/** The delivery log: a project's notifications, newest first. */
export async function listNotifications(
  client: ClickHouseClient,
  projectId: string,
  opts: { destinationId?: string; ruleId?: string; deliveryState?: string; limit: number; offset?: number },
): Promise<StoredNotification[]> {
  const rows = await selectRows<NotificationRow>(
    client,
    `${SELECT} WHERE project_id = {projectId:String}
       ${opts.destinationId === undefined ? '' : 'AND destination_id = {destinationId:String}'}
       ${opts.ruleId === undefined ? '' : 'AND rule_id = {ruleId:String}'}
       ${opts.deliveryState === undefined ? '' : 'AND delivery_state = {deliveryState:String}'}
     ORDER BY created_at DESC, notification_id DESC LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
    { projectId, ...opts, offset: opts.offset ?? 0 },
  );
  return rows.map(fromRow);
}

export async function getNotification(
  client: ClickHouseClient,
  projectId: string,
  notificationId: string,
): Promise<StoredNotification | undefined> {
  const rows = await selectRows<NotificationRow>(
    client,
    `${SELECT} WHERE project_id = {projectId:String} AND notification_id = {notificationId:String}`,
    {
      projectId,
      notificationId,
    },
  );
  const row = rows[0];
  return row === undefined ? undefined : fromRow(row);
}

export async function appendDeliveryAttempts(
  client: ClickHouseClient,
  attempts: readonly DeliveryAttempt[],
): Promise<void> {
  await insertRows(
    client,
    'alert_delivery_attempts',
    attempts.map((a) => ({
      project_id: a.projectId,
      notification_id: a.notificationId,
      attempt: a.attempt,
      at: msToDateTime64(a.atMs),
      url: a.url,
      status_code: a.statusCode ?? null,
      outcome: a.outcome,
      error: a.error,
      duration_ms: Math.max(0, Math.round(a.durationMs)),
    })),
  );
}

/** Every attempt of one notification, in order. */
export async function listDeliveryAttempts(
  client: ClickHouseClient,
  projectId: string,
  notificationId: string,
): Promise<DeliveryAttempt[]> {
  const rows = await selectRows<{
    attempt: Num;
    at_ms: Num;
    url: string;
    status_code: Num | null;
    outcome: string;
    error: string;
    duration_ms: Num;
  }>(
    client,
    `SELECT attempt, toUnixTimestamp64Milli(at) AS at_ms, url, status_code, outcome, error, duration_ms
     FROM alert_delivery_attempts FINAL
     WHERE project_id = {projectId:String} AND notification_id = {notificationId:String}
     ORDER BY at, attempt`,
    { projectId, notificationId },
  );
  return rows.map((r) => ({
    projectId,
    notificationId,
    attempt: num(r.attempt),
    atMs: num(r.at_ms),
    url: r.url,
    statusCode: optNum(r.status_code),
    outcome: r.outcome,
    error: r.error,
    durationMs: num(r.duration_ms),
  }));
}
