import type { DeliveryAttempt, Destination, Notification, TestResult } from '@telltale/api-contract';
import { ruleHref } from './prepareAlertRules';
import { formatEpochMs } from './prepareAlertTime';

export type DeliveryTone = 'delivered' | 'pending' | 'failed' | 'retry' | 'disabled' | 'other';

function deliveryTone(state: string): DeliveryTone {
  return state === 'delivered' || state === 'pending' || state === 'failed' || state === 'retry' || state === 'disabled'
    ? state
    : 'other';
}

export interface DestinationRow {
  id: string;
  name: string;
  url: string;
  format: string;
  enabled: boolean;
  statusLabel: string;
  /** Why it is disabled ('' when enabled). */
  disabledReason: string;
  secretsLabel: string;
  createdLabel: string;
}

export function prepareDestinationRows(destinations: readonly Destination[], timeZone?: string): DestinationRow[] {
  return destinations.map((d) => ({
    id: d.id,
    name: d.name,
    url: d.url,
    format: d.format,
    enabled: d.enabled,
    statusLabel: d.enabled
      ? 'Enabled'
      : `Disabled${d.disabledAtMs === null ? '' : ` since ${formatEpochMs(d.disabledAtMs, timeZone)}`}`,
    disabledReason: d.enabled ? '' : d.disabledReason,
    secretsLabel:
      d.secretPrefixes.length <= 1
        ? (d.secretPrefixes[0] ?? 'no secret')
        : `${d.secretPrefixes[0] ?? ''} (+${d.secretPrefixes.length - 1} still signing)`,
    createdLabel: formatEpochMs(d.createdAtMs, timeZone),
  }));
}

export interface NotificationRow {
  id: string;
  kind: string;
  /** `Test notification`, the rule's name, or its id once deleted. */
  subject: string;
  ruleHref: string | undefined;
  groupLabel: string;
  destinationName: string;
  tone: DeliveryTone;
  stateLabel: string;
  attemptsLabel: string;
  createdLabel: string;
  /** When it was delivered, or when the next attempt is due. */
  whenLabel: string;
  lastError: string;
}

export function prepareNotificationRows(
  notifications: readonly Notification[],
  rules: ReadonlyArray<{ id: string; name: string }>,
  destinations: readonly Destination[],
  timeZone?: string,
): NotificationRow[] {
  const ruleName = new Map(rules.map((r) => [r.id, r.name]));
  const destinationName = new Map(destinations.map((d) => [d.id, d.name]));
  return notifications.map((n) => {
    const tone = deliveryTone(n.deliveryState);
    const known = ruleName.get(n.ruleId);
    return {
      id: n.notificationId,
      kind: n.kind,
      subject: n.kind === 'test' ? 'Test notification' : (known ?? (n.ruleId || '–')),
      ruleHref: known === undefined ? undefined : ruleHref(n.ruleId),
      groupLabel: n.groupKey.startsWith('run:') ? `run ${n.groupKey.slice(4)}` : n.groupKey,
      destinationName: destinationName.get(n.destinationId) ?? n.destinationId,
      tone,
      stateLabel: n.deliveryState,
      attemptsLabel: String(n.attempts),
      createdLabel: formatEpochMs(n.createdAtMs, timeZone),
      whenLabel:
        n.deliveredAtMs !== null
          ? `delivered ${formatEpochMs(n.deliveredAtMs, timeZone)}`
          : tone === 'pending'
            ? `next attempt ${formatEpochMs(n.nextAttemptAtMs, timeZone)}`
            : '',
      lastError: n.lastError,
    };
  });
}

export interface AttemptRow {
  key: string;
  attempt: number;
  atLabel: string;
  tone: DeliveryTone;
  outcome: string;
  statusLabel: string;
  durationLabel: string;
  error: string;
}

/** Every HTTP attempt of a notification, first first. */
export function prepareAttemptRows(attempts: readonly DeliveryAttempt[], timeZone?: string): AttemptRow[] {
  return [...attempts]
    .sort((a, b) => a.attempt - b.attempt || a.atMs - b.atMs)
    .map((a) => ({
      key: `${a.notificationId}/${a.attempt}/${a.atMs}`,
      attempt: a.attempt,
      atLabel: formatEpochMs(a.atMs, timeZone),
      tone: deliveryTone(a.outcome),
      outcome: a.outcome,
      statusLabel:
        a.statusCode === null || a.statusCode === undefined || a.statusCode === 0
          ? 'no response'
          : `HTTP ${a.statusCode}`,
      durationLabel: `${Math.round(a.durationMs)} ms`,
      error: a.error,
    }));
}

/** What "send test notification" did, in one line. */
export function describeTestResult(result: TestResult): { tone: DeliveryTone; text: string } {
  const tone = deliveryTone(result.outcome.outcome);
  const status = result.attempt.statusCode ? `HTTP ${result.attempt.statusCode}` : 'no response';
  switch (tone) {
    case 'delivered':
      return { tone, text: `Delivered (${status}) as ${result.notification.notificationId}` };
    case 'retry':
      return { tone, text: `Not delivered (${result.outcome.reason ?? status}); it will be retried` };
    case 'disabled':
      return { tone, text: `The receiver answered 410 Gone: the destination is now disabled` };
    case 'failed':
    case 'pending':
    case 'other':
      return { tone, text: `Not delivered: ${result.outcome.reason ?? status}` };
  }
}
