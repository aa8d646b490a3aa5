import { describe, expect, it } from 'vitest';
import { testResultSchema } from '@telltale/api-contract';
import { attempt, destination, MS0, notification, rule } from '../testing/alertsFixtures';
import {
  describeTestResult,
  prepareAttemptRows,
  prepareDestinationRows,
  prepareNotificationRows,
} from './prepareAlertDelivery';

describe('delivery log', () => {
  it('names the rule and destination of each notification and says when it went or goes out', () => {
    const rows = prepareNotificationRows(
      [
        notification(),
        notification({
          notificationId: 'msg_2',
          kind: 'test',
          ruleId: '',
          deliveryState: 'pending',
          deliveredAtMs: null,
          attempts: 1,
          nextAttemptAtMs: MS0 + 10_000,
          lastError: 'the receiver answered 503',
        }),
        notification({
          notificationId: 'msg_3',
          ruleId: 'rule_gone',
          destinationId: 'dst_gone',
          groupKey: 'run:abc',
          deliveryState: 'failed',
          deliveredAtMs: null,
        }),
      ],
      [rule()],
      [destination()],
      'UTC',
    );
    expect(rows.map((r) => [r.subject, r.ruleHref, r.destinationName, r.tone, r.whenLabel, r.groupLabel])).toEqual([
      ['checkout success', '/alerts/rules/rule_1', 'on-call', 'delivered', 'delivered 2023-11-14 22:13:20', ''],
      ['Test notification', undefined, 'on-call', 'pending', 'next attempt 2023-11-14 22:13:30', ''],
      ['rule_gone', undefined, 'dst_gone', 'failed', '', 'run abc'],
    ]);
    expect(rows[1]?.lastError).toBe('the receiver answered 503');
  });

  it('lists attempts in order with their response', () => {
    const rows = prepareAttemptRows(
      [
        attempt({ attempt: 2, statusCode: 200 }),
        attempt({ attempt: 1, statusCode: undefined, outcome: 'retry', error: 'connection: ECONNREFUSED' }),
      ],
      'UTC',
    );
    expect(rows.map((r) => [r.attempt, r.tone, r.statusLabel, r.durationLabel, r.error])).toEqual([
      [1, 'retry', 'no response', '12 ms', 'connection: ECONNREFUSED'],
      [2, 'delivered', 'HTTP 200', '12 ms', ''],
    ]);
  });

  it('describes a test notification outcome', () => {
    const result = (outcome: Record<string, unknown>, statusCode: number) =>
      testResultSchema.parse({
        notification: notification({ kind: 'test' }),
        outcome,
        attempt: attempt({ statusCode }),
      });
    expect(describeTestResult(result({ outcome: 'delivered' }, 204))).toEqual({
      tone: 'delivered',
      text: 'Delivered (HTTP 204) as msg_1',
    });
    expect(
      describeTestResult(result({ outcome: 'retry', delayMs: 1000, reason: 'the receiver answered 503' }, 503)).text,
    ).toBe('Not delivered (the receiver answered 503); it will be retried');
    expect(describeTestResult(result({ outcome: 'disabled', reason: 'gone' }, 410)).tone).toBe('disabled');
    expect(describeTestResult(result({ outcome: 'failed', reason: 'the receiver answered 404' }, 404)).text).toBe(
      'Not delivered: the receiver answered 404',
    );
  });

  it('shows destinations without their secrets, and why one is disabled', () => {
    const rows = prepareDestinationRows(
      [
        destination(),
        destination({
          id: 'dst_2',
          enabled: false,
          disabledAtMs: MS0,
          disabledReason: 'the receiver answered 410 Gone',
          secretPrefixes: ['whsec_new…', 'whsec_old…'],
        }),
      ],
      'UTC',
    );
    expect(rows.map((r) => [r.statusLabel, r.disabledReason, r.secretsLabel])).toEqual([
      ['Enabled', '', 'whsec_abcd…'],
      ['Disabled since 2023-11-14 22:13:20', 'the receiver answered 410 Gone', 'whsec_new… (+1 still signing)'],
    ]);
  });
});
