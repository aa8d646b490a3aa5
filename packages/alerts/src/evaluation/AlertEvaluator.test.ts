import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '@telltale/store';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlertService } from '../AlertService.js';
import { AlertDispatcher } from '../delivery/AlertDispatcher.js';
import { ruleSpec } from '../testing/ruleSpec.js';
import { WebhookReceiver } from '../testing/WebhookReceiver.js';
import { AlertEvaluator } from './AlertEvaluator.js';
import type { Observation } from '../rules/measureRule.js';

const POLICY = { allowPrivate: ['127.0.0.0/8'] };

describe('AlertEvaluator + AlertDispatcher (embedded chDB, real receiver)', () => {
  let dir: string;
  let store: Store;
  let receiver: WebhookReceiver;
  let now = Date.now();
  let observation: Observation = { value: 0.99, sample: 50 };
  const clock = (): number => now;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-alerts-eval-'));
    store = await Store.open({ kind: 'embedded', dataDir: dir });
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await receiver.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const parts = () => {
    const dispatcher = new AlertDispatcher({
      store,
      policy: POLICY,
      clock,
      retry: { baseDelayMs: 1000, maxAttempts: 5 },
    });
    const evaluator = new AlertEvaluator({
      store,
      measure: () => Promise.resolve(observation),
      dashboardUrl: 'http://dash.example',
      clock,
    });
    const service = new AlertService({ store, dispatcher, policy: POLICY, clock, dashboardUrl: 'http://dash.example' });
    return { dispatcher, evaluator, service };
  };

  it('fires once, retries with the same webhook-id, resolves exactly once, and a restart neither loses nor duplicates', async () => {
    const { dispatcher, evaluator, service } = parts();
    const { destination, secret } = await service.createDestination('p1', {
      name: 'ops',
      url: receiver.url,
      format: 'standard',
    });
    const rule = await service.createRule(
      'p1',
      ruleSpec({ destinationIds: [destination.id], evaluationIntervalSeconds: 10, forSeconds: 20 }),
    );
    await evaluator.load();

    const step = async (seconds: number): Promise<void> => {
      now += seconds * 1000;
      await evaluator.tick();
      await dispatcher.deliverDue();
    };
    await step(0); // ok
    observation = { value: 0.5, sample: 50 };
    await step(10); // pending
    await step(10); // still pending (10 s < for 20 s)
    expect(receiver.received).toHaveLength(0);
    receiver.respondWith(503);
    await step(10); // firing: first attempt gets 503
    expect(receiver.received).toHaveLength(1);
    await step(1); // backoff not over yet (≥ 500 ms... retry at ≤ 1 s): nothing or the retry
    await step(1);
    expect(receiver.received).toHaveLength(2);
    const [first, retry] = receiver.received;
    expect(retry!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(new Webhook(secret).verify(retry!.body, retry!.headers as Record<string, string>)).toMatchObject({
      status: 'firing',
      value: 0.5,
      rule: { id: rule.id },
    });

    // restart while firing: a new evaluator and dispatcher on the same store send nothing new
    const again = parts();
    await again.evaluator.load();
    await again.dispatcher.deliverDue();
    now += 10_000;
    await again.evaluator.tick();
    await again.dispatcher.deliverDue();
    expect(receiver.received).toHaveLength(2);

    observation = { value: 0.98, sample: 50 };
    for (let i = 0; i < 3; i++) {
      now += 10_000;
      await again.evaluator.tick();
      await again.dispatcher.deliverDue();
    }
    const bodies = receiver.bodies<{ status: string }>();
    expect(bodies.map((b) => b.status)).toEqual(['firing', 'firing', 'resolved']);
    const history = await store.alerts.listAlertHistory('p1', { limit: 10 });
    expect(history.map((h) => `${h.fromState}>${h.toState}`).reverse()).toEqual([
      'ok>pending',
      'pending>firing',
      'firing>resolved',
    ]);
  });

  it('a notification decided but not yet in the outbox (crash in between) is written at start with its id, once', async () => {
    const { dispatcher, evaluator, service } = parts();
    const { destination } = await service.createDestination('p2', { name: 'ops', url: receiver.url, format: 'slack' });
    const rule = await service.createRule('p2', ruleSpec({ destinationIds: [destination.id] }));
    // the state a crashed evaluator wrote just before its outbox rows
    await store.alerts.putAlertStates([
      {
        projectId: 'p2',
        ruleId: rule.id,
        groupKey: '',
        state: 'firing',
        episode: 'ep_x',
        sinceMs: now,
        firedAtMs: now,
        lastEvalAtMs: now,
        lastValue: 0.4,
        lastSample: 30,
        notifySeq: 1,
        notifyKind: 'firing',
        lastNotifiedAtMs: now,
        labels: {},
      },
    ]);
    const before = receiver.received.length;
    await evaluator.load();
    await evaluator.load();
    expect(await store.alerts.listNotifications('p2', { limit: 10 })).toHaveLength(1);
    await dispatcher.deliverDue();
    await dispatcher.deliverDue();
    expect(receiver.received.length - before).toBe(1);
    expect(JSON.parse(receiver.received.at(-1)!.body)).toMatchObject({ text: expect.stringContaining('[FIRING]') });
  });

  it('410 disables the destination; live loop events fire per run and resolve once', async () => {
    const { dispatcher, evaluator, service } = parts();
    const { destination } = await service.createDestination('p3', {
      name: 'gone',
      url: receiver.url,
      format: 'alertmanager',
    });
    await service.createRule(
      'p3',
      ruleSpec({ metric: 'any_loop', comparison: 'gt', threshold: 0, destinationIds: [destination.id] }),
    );
    await evaluator.load();
    const before = receiver.received.length;
    const event = {
      projectId: 'p3',
      kind: 'loop' as const,
      groupKey: 'run:r1',
      value: 3,
      atMs: now,
      labels: { runId: 'r1', tool: 'search' },
    };
    await evaluator.raise({ ...event, status: 'firing' });
    await evaluator.raise({ ...event, status: 'firing', value: 4 });
    await evaluator.raise({ ...event, status: 'resolved' });
    await evaluator.raise({ ...event, status: 'resolved' });
    receiver.respondWith(200, 410);
    await dispatcher.deliverDue();
    const got = receiver.bodies<{ status: string; alerts: Array<{ labels: Record<string, string> }> }>().slice(before);
    expect(got.map((b) => b.status).sort()).toEqual(['firing', 'resolved']);
    expect(got[0]!.alerts[0]!.labels).toMatchObject({ runId: 'r1', metric: 'any_loop' });
    expect((await service.getDestination('p3', destination.id)).enabled).toBe(false);
    // a disabled destination gets nothing more
    await evaluator.raise({ ...event, groupKey: 'run:r2', status: 'firing' });
    await dispatcher.deliverDue();
    expect(receiver.received.length - before).toBe(2);
  });

  it('a rule disabled or deleted while it fires is resolved once, with its destinations told', async () => {
    const { dispatcher, evaluator, service } = parts();
    const { destination } = await service.createDestination('p4', {
      name: 'ops',
      url: receiver.url,
      format: 'standard',
    });
    const spec = ruleSpec({ destinationIds: [destination.id], evaluationIntervalSeconds: 10, forSeconds: 0 });
    const disabled = await service.createRule('p4', { ...spec, name: 'disabled-while-firing' });
    const deleted = await service.createRule('p4', { ...spec, name: 'deleted-while-firing' });
    await evaluator.load();
    const before = receiver.received.length;
    observation = { value: 0.5, sample: 50 };
    now += 10_000;
    await evaluator.tick();
    await dispatcher.deliverDue();
    const sent = () => receiver.bodies<{ status: string; rule: { id: string } }>().slice(before);
    expect(sent().map((b) => b.status)).toEqual(['firing', 'firing']);

    await service.updateRule('p4', disabled.id, { ...spec, name: 'disabled-while-firing', enabled: false });
    await service.deleteRule('p4', deleted.id);
    for (let i = 0; i < 3; i++) {
      now += 10_000;
      await evaluator.tick();
      await dispatcher.deliverDue();
    }
    const resolved = sent().filter((b) => b.status === 'resolved');
    expect(resolved.map((b) => b.rule.id).sort()).toEqual([disabled.id, deleted.id].sort());
    const history = await store.alerts.listAlertHistory('p4', { limit: 10 });
    expect(
      history
        .filter((h) => h.toState === 'resolved')
        .map((h) => h.message)
        .sort(),
    ).toEqual(['rule deleted', 'rule disabled']);
    // the deleted rule is off the state list; the disabled one shows resolved
    expect((await service.states('p4')).map((s) => [s.ruleId, s.state])).toEqual([[disabled.id, 'resolved']]);
  });

  it('a rule deleted while no evaluator runs is resolved once, by the next evaluator to start', async () => {
    const first = parts();
    const { destination } = await first.service.createDestination('p5', {
      name: 'ops',
      url: receiver.url,
      format: 'standard',
    });
    const spec = ruleSpec({ destinationIds: [destination.id], evaluationIntervalSeconds: 10, forSeconds: 0 });
    const rule = await first.service.createRule('p5', { ...spec, name: 'deleted-while-down' });
    const kept = await first.service.createRule('p5', { ...spec, name: 'kept' });
    await first.evaluator.load();
    const before = receiver.received.length;
    observation = { value: 0.5, sample: 50 };
    now += 10_000;
    await first.evaluator.tick();
    await first.dispatcher.deliverDue();
    const sent = () => receiver.bodies<{ status: string; rule: { id: string } }>().slice(before);
    expect(sent().map((b) => b.status)).toEqual(['firing', 'firing']);

    // the evaluator is gone (a stop, a crash, a lease handed over) when the rule is deleted
    await first.service.deleteRule('p5', rule.id);
    const next = parts();
    now += 1_000;
    await next.evaluator.load();
    await next.dispatcher.deliverDue();
    expect(sent().slice(2)).toEqual([
      expect.objectContaining({ status: 'resolved', rule: expect.objectContaining({ id: rule.id }) as unknown }),
    ]);
    const history = await store.alerts.listAlertHistory('p5', { limit: 10 });
    expect(history.filter((h) => h.toState === 'resolved').map((h) => [h.ruleId, h.message])).toEqual([
      [rule.id, 'rule deleted'],
    ]);

    // once: neither its ticks nor another start tell it again; the rule kept still fires
    now += 10_000;
    await next.evaluator.tick();
    const third = parts();
    await third.evaluator.load();
    await third.dispatcher.deliverDue();
    await next.dispatcher.deliverDue();
    expect(sent().filter((b) => b.status === 'resolved')).toHaveLength(1);
    expect((await first.service.states('p5')).map((s) => [s.ruleId, s.state])).toEqual([[kept.id, 'firing']]);
  });
});
