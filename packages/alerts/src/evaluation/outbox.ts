import { createHash } from 'node:crypto';
import type { Store, StoreRows } from '@telltale/store';
import {
  DESTINATION_FORMATS,
  formatPayload,
  summarise,
  type AlertNotice,
  type DestinationFormat,
} from '../delivery/payloads.js';
import type { AlertRule } from '../rules/AlertRule.js';

/**
 * The webhook id of one notification: derived from what it is (project,
 * rule, group, episode, sequence, destination), so writing it again after a
 * crash yields the same id, and the outbox keeps it once.
 */
export function notificationId(parts: {
  projectId: string;
  ruleId: string;
  groupKey: string;
  episode: string;
  seq: number;
  destinationId: string;
}): string {
  const h = createHash('sha256').update(
    [parts.projectId, parts.ruleId, parts.groupKey, parts.episode, String(parts.seq), parts.destinationId].join(
      '\u0000',
    ),
  );
  return `msg_${h.digest('base64url').slice(0, 27)}`;
}

export function resolveUrl(url: string | (() => string)): string {
  return typeof url === 'string' ? url : url();
}

export function isFormat(format: string): format is DestinationFormat {
  return (DESTINATION_FORMATS as readonly string[]).includes(format);
}

/** The notice a state's last notification decision describes. */
export function noticeOf(rule: AlertRule, state: StoreRows.StoredAlertState, dashboardUrl: string): AlertNotice {
  const status = state.notifyKind === 'resolved' ? 'resolved' : 'firing';
  const base = { rule, value: state.lastValue, sampleSize: state.lastSample, status } as const;
  return {
    ...base,
    test: false,
    projectId: state.projectId,
    groupKey: state.groupKey,
    groupLabels: state.labels,
    episode: state.episode,
    sequence: state.notifySeq,
    startsAtMs: state.firedAtMs ?? state.sinceMs,
    endsAtMs: status === 'resolved' ? state.sinceMs : undefined,
    evaluatedAtMs: state.lastEvalAtMs,
    dashboardUrl: `${dashboardUrl.replace(/\/+$/, '')}/alerts?project=${encodeURIComponent(state.projectId)}&rule=${encodeURIComponent(rule.id)}`,
    summary: summarise(base),
  };
}

/**
 * Writes the outbox rows of a state's last notification decision, one per
 * destination of the rule, skipping ids the outbox has already (so it is
 * safe to call again after a crash). Returns how many rows it wrote.
 */
export async function enqueueNotifications(
  store: Store,
  rule: AlertRule,
  state: StoreRows.StoredAlertState,
  dashboardUrl: string,
  nowMs: number,
): Promise<number> {
  if (state.notifyKind === '' || state.notifySeq === 0) return 0;
  const wanted = rule.destinationIds.map((destinationId) => ({
    destinationId,
    id: notificationId({
      projectId: state.projectId,
      ruleId: rule.id,
      groupKey: state.groupKey,
      episode: state.episode,
      seq: state.notifySeq,
      destinationId,
    }),
  }));
  const existing = await store.alerts.existingNotificationIds(
    state.projectId,
    wanted.map((w) => w.id),
  );
  const notice = noticeOf(rule, state, dashboardUrl);
  const rows: StoreRows.StoredNotification[] = [];
  for (const w of wanted) {
    if (existing.has(w.id)) continue;
    const destination = await store.alerts.getAlertDestination(state.projectId, w.destinationId);
    if (destination === undefined || !isFormat(destination.format)) continue;
    rows.push({
      projectId: state.projectId,
      notificationId: w.id,
      destinationId: w.destinationId,
      ruleId: rule.id,
      groupKey: state.groupKey,
      kind: notice.status,
      body: formatPayload(destination.format, notice),
      deliveryState: 'pending',
      attempts: 0,
      nextAttemptAtMs: nowMs,
      createdAtMs: nowMs,
      deliveredAtMs: undefined,
      lastError: '',
    });
  }
  await store.alerts.putNotifications(rows);
  return rows.length;
}
