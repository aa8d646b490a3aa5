import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../Store.js';
import {
  deleteAlertDestination,
  getAlertDestination,
  listAlertDestinations,
  putAlertDestination,
  type StoredAlertDestination,
} from './alertDestinations.js';
import { deleteAlertRule, getAlertRule, listAlertRules, listDeletedAlertRules, putAlertRule } from './alertRules.js';
import {
  appendAlertHistory,
  listAlertHistory,
  listAlertStates,
  putAlertStates,
  type StoredAlertState,
} from './alertState.js';
import {
  appendDeliveryAttempts,
  existingNotificationIds,
  getNotification,
  listDeliveryAttempts,
  listDueNotifications,
  listNotifications,
  putNotifications,
  type StoredNotification,
} from './alertNotifications.js';
import { clientOf } from '../internal/storeRunners.js';

const NOW = Date.now();

function notification(over: Partial<StoredNotification> = {}): StoredNotification {
  return {
    projectId: 'p1',
    notificationId: 'msg_1',
    destinationId: 'dst_1',
    ruleId: 'rule_1',
    groupKey: '',
    kind: 'firing',
    body: '{"status":"firing","text":"two\\n\\nlines"}',
    deliveryState: 'pending',
    attempts: 0,
    nextAttemptAtMs: NOW - 1000,
    createdAtMs: NOW - 1000,
    deliveredAtMs: undefined,
    lastError: '',
    ...over,
  };
}

describe('alert tables (embedded chDB)', () => {
  let dir: string;
  let store: Store;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-alerts-store-'));
    store = await Store.open({ kind: 'embedded', dataDir: dir });
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the newest version of a rule, scoped by project, and hides deleted ones', async () => {
    const base = {
      projectId: 'p1',
      ruleId: 'rule_1',
      name: 'a',
      definition: '{"metric":"e2e_success"}',
      enabled: true,
      createdAtMs: NOW,
      updatedAtMs: NOW,
    };
    await putAlertRule(clientOf(store), base);
    await putAlertRule(clientOf(store), { ...base, name: 'b', enabled: false });
    await putAlertRule(clientOf(store), { ...base, projectId: 'p2' });
    await putAlertRule(clientOf(store), { ...base, ruleId: 'rule_2' });
    await deleteAlertRule(clientOf(store), { ...base, ruleId: 'rule_2' });
    expect(await listAlertRules(clientOf(store), 'p1')).toEqual([{ ...base, name: 'b', enabled: false }]);
    // a deleted rule is found as it was when deleted; live and unknown ones are not
    const deleted = await listDeletedAlertRules(clientOf(store), [
      { projectId: 'p1', ruleId: 'rule_2' },
      { projectId: 'p1', ruleId: 'rule_1' },
      { projectId: 'p9', ruleId: 'rule_2' },
    ]);
    expect(deleted).toEqual([{ ...base, ruleId: 'rule_2', updatedAtMs: expect.any(Number) as unknown }]);
    expect(deleted[0]!.updatedAtMs).toBeGreaterThanOrEqual(NOW);
    await putAlertRule(clientOf(store), { ...base, ruleId: 'rule_2' }); // made again: live, not deleted
    expect(await listDeletedAlertRules(clientOf(store), [{ projectId: 'p1', ruleId: 'rule_2' }])).toEqual([]);
    await deleteAlertRule(clientOf(store), { ...base, ruleId: 'rule_2' });
    expect((await listAlertRules(clientOf(store))).map((r) => `${r.projectId}/${r.ruleId}`)).toEqual([
      'p1/rule_1',
      'p2/rule_1',
    ]);
    expect(await getAlertRule(clientOf(store), 'p1', 'rule_2')).toBeUndefined();
    expect(await getAlertRule(clientOf(store), 'p3', 'rule_1')).toBeUndefined();
  });

  it('stores destinations with several secrets and a disabled mark', async () => {
    const d: StoredAlertDestination = {
      projectId: 'p1',
      destinationId: 'dst_1',
      name: 'ops',
      format: 'standard',
      url: 'https://hooks.example.com/x',
      secrets: ['whsec_new', 'whsec_old'],
      disabledAtMs: undefined,
      disabledReason: '',
      createdAtMs: NOW,
      updatedAtMs: NOW,
    };
    await putAlertDestination(clientOf(store), d);
    expect(await getAlertDestination(clientOf(store), 'p1', 'dst_1')).toEqual(d);
    await putAlertDestination(clientOf(store), { ...d, disabledAtMs: NOW + 5, disabledReason: '410 Gone' });
    expect((await listAlertDestinations(clientOf(store), 'p1'))[0]).toMatchObject({
      disabledAtMs: NOW + 5,
      disabledReason: '410 Gone',
    });
    await deleteAlertDestination(clientOf(store), 'p1', 'dst_1');
    expect(await listAlertDestinations(clientOf(store), 'p1')).toEqual([]);
  });

  it('keeps the latest state per (rule, group) and the history newest first', async () => {
    const s: StoredAlertState = {
      projectId: 'p1',
      ruleId: 'rule_1',
      groupKey: '',
      state: 'pending',
      episode: 'ep_1',
      sinceMs: NOW,
      firedAtMs: undefined,
      lastEvalAtMs: NOW,
      lastValue: 0.5,
      lastSample: 20,
      notifySeq: 0,
      notifyKind: '',
      lastNotifiedAtMs: undefined,
      labels: { team: 'core' },
    };
    await putAlertStates(clientOf(store), [s]);
    await putAlertStates(clientOf(store), [
      { ...s, state: 'firing', firedAtMs: NOW + 1, notifySeq: 1, notifyKind: 'firing', lastNotifiedAtMs: NOW + 1 },
    ]);
    expect(await listAlertStates(clientOf(store), { projectId: 'p1' })).toEqual([
      { ...s, state: 'firing', firedAtMs: NOW + 1, notifySeq: 1, notifyKind: 'firing', lastNotifiedAtMs: NOW + 1 },
    ]);
    const ev = { projectId: 'p1', ruleId: 'rule_1', groupKey: '', threshold: 0.9, sample: 20, value: 0.5, message: '' };
    await appendAlertHistory(clientOf(store), [
      { ...ev, eventId: 'e1', atMs: NOW, fromState: 'ok', toState: 'pending' },
      { ...ev, eventId: 'e2', atMs: NOW + 1, fromState: 'pending', toState: 'firing' },
    ]);
    // the same event written twice (a retried insert) is kept once
    await appendAlertHistory(clientOf(store), [
      { ...ev, eventId: 'e2', atMs: NOW + 1, fromState: 'pending', toState: 'firing' },
    ]);
    const history = await listAlertHistory(clientOf(store), 'p1', { limit: 10 });
    expect(history.map((h) => h.toState)).toEqual(['firing', 'pending']);
    expect(await listAlertHistory(clientOf(store), 'p2', { limit: 10 })).toEqual([]);
  });

  it('outbox: pending rows are due, a delivered version is never due again, ids are known', async () => {
    await putNotifications(clientOf(store), [
      notification(),
      notification({ notificationId: 'msg_2', nextAttemptAtMs: NOW + 60_000 }),
    ]);
    expect((await listDueNotifications(clientOf(store), NOW, 10)).map((n) => n.notificationId)).toEqual(['msg_1']);
    await putNotifications(clientOf(store), [
      notification({ deliveryState: 'delivered', attempts: 1, deliveredAtMs: NOW }),
    ]);
    expect(await listDueNotifications(clientOf(store), NOW, 10)).toEqual([]);
    expect(await getNotification(clientOf(store), 'p1', 'msg_1')).toEqual(
      notification({ deliveryState: 'delivered', attempts: 1, deliveredAtMs: NOW }),
    );
    expect([...(await existingNotificationIds(clientOf(store), 'p1', ['msg_1', 'msg_2', 'msg_3']))].sort()).toEqual([
      'msg_1',
      'msg_2',
    ]);
    expect(
      (await listNotifications(clientOf(store), 'p1', { limit: 10, deliveryState: 'pending' })).map(
        (n) => n.notificationId,
      ),
    ).toEqual(['msg_2']);
    await appendDeliveryAttempts(clientOf(store), [
      {
        projectId: 'p1',
        notificationId: 'msg_1',
        attempt: 1,
        atMs: NOW,
        url: 'https://h/x',
        statusCode: 503,
        outcome: 'retry',
        error: '',
        durationMs: 12,
      },
      {
        projectId: 'p1',
        notificationId: 'msg_1',
        attempt: 2,
        atMs: NOW + 5,
        url: 'https://h/x',
        statusCode: undefined,
        outcome: 'delivered',
        error: '',
        durationMs: 3,
      },
    ]);
    expect(
      (await listDeliveryAttempts(clientOf(store), 'p1', 'msg_1')).map((a) => [a.attempt, a.statusCode, a.outcome]),
    ).toEqual([
      [1, 503, 'retry'],
      [2, undefined, 'delivered'],
    ]);
  });
});
