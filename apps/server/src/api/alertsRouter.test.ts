import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebhookReceiver } from '@telltale/alerts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StartConfigSchema } from '../config.js';
import { startServer, type RunningServer } from '../http/startServer.js';
import { callApi } from '../testing/scriptedServer.js';

let server: RunningServer;
let dataDir: string;
let receiver: WebhookReceiver;

const call = <T = Record<string, unknown>>(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> => callApi<T>(server, method, path, body);

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'telltale-alerts-api-'));
  receiver = await WebhookReceiver.start();
  server = await startServer(
    StartConfigSchema.parse({
      port: 0,
      dataDir,
      logLevel: 'silent',
      alertsAllowPrivate: '127.0.0.0/8',
      alertsRetryBaseMs: 100,
    }),
  );
});

afterAll(async () => {
  await server.close();
  await receiver.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('/api/v1/alerts', () => {
  it('refuses destination URLs the SSRF guard forbids, at save', async () => {
    for (const url of [
      'http://10.0.0.1/x',
      'http://169.254.169.254/latest',
      'http://[::1]/x',
      'http://[fd00::1]/x',
      'http://100.64.0.1/',
      'http://localhost.invalid/x',
    ]) {
      const res = await call<{ error: { code: string; message: string } }>('POST', '/alerts/destinations', {
        name: 'x',
        url,
      });
      expect(res.status, url).toBe(400);
      expect(res.body.error.message).toMatch(/destination URL refused/);
    }
  });

  it('creates, lists, tests and rotates a destination; secrets show once', async () => {
    const created = await call<{ destination: { id: string; secretPrefixes: string[] }; secret: string }>(
      'POST',
      '/alerts/destinations',
      { name: 'ops', url: receiver.url },
    );
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_/);
    const list = await call<{ destinations: unknown[] }>('GET', '/alerts/destinations');
    expect(JSON.stringify(list.body)).not.toContain(created.body.secret);
    const id = created.body.destination.id;

    const test = await call<{
      outcome: { outcome: string };
      notification: { notificationId: string; kind: string; deliveryState: string };
    }>('POST', `/alerts/destinations/${id}/test`);
    expect(test.status).toBe(200);
    expect(test.body.outcome.outcome).toBe('delivered');
    expect(test.body.notification).toMatchObject({ kind: 'test', deliveryState: 'delivered' });
    expect(receiver.received.at(-1)!.headers['webhook-id']).toBe(test.body.notification.notificationId);

    // no body: the defaults (the previous secret keeps signing)
    const rotated = await call<{ destination: { secretPrefixes: string[] }; secret: string }>(
      'POST',
      `/alerts/destinations/${id}/rotate-secret`,
    );
    expect(rotated.status).toBe(200);
    expect(rotated.body.destination.secretPrefixes).toHaveLength(2);

    const log = await call<{
      notification: { notificationId: string };
      attempts: Array<{ statusCode: number; outcome: string }>;
    }>('GET', `/alerts/notifications/${test.body.notification.notificationId}`);
    expect(log.body.attempts).toEqual([expect.objectContaining({ statusCode: 200, outcome: 'delivered' })]);

    const before = receiver.received.length;
    const again = await call<{ notification: { deliveryState: string } }>(
      'POST',
      `/alerts/notifications/${test.body.notification.notificationId}/redeliver`,
    );
    expect(again.body.notification.deliveryState).toBe('pending');
    await receiver.waitFor(before + 1);
    expect(receiver.received.at(-1)!.headers['webhook-id']).toBe(test.body.notification.notificationId);
    expect(String(receiver.received.at(-1)!.headers['webhook-signature']).split(' ')).toHaveLength(2);

    // a destination a rule notifies is not deleted from under it
    const rule = await call<{ rule: { id: string } }>('POST', '/alerts/rules', {
      name: 'uses ops',
      metric: 'e2e_success',
      comparison: 'lt',
      threshold: 0.9,
      destinationIds: [id],
    });
    const refused = await call<{ error: { code: string; message: string } }>('DELETE', `/alerts/destinations/${id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: 'CONFLICT',
      message: `destination ${id} is used by rule ${rule.body.rule.id} (uses ops): remove it from them, or delete them, first`,
    });
    expect((await call('DELETE', `/alerts/rules/${rule.body.rule.id}`)).status).toBe(200);
    expect((await call('DELETE', `/alerts/destinations/${id}`)).status).toBe(200);
  });

  it('creates, validates, updates and deletes rules', async () => {
    const bad = await call<{ error: { message: string } }>('POST', '/alerts/rules', {
      name: 'x',
      metric: 'step_success',
      comparison: 'lt',
      threshold: 0.9,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/filters\.step/);
    const unknownDestination = await call('POST', '/alerts/rules', {
      name: 'x',
      metric: 'e2e_success',
      comparison: 'lt',
      threshold: 0.9,
      destinationIds: ['dst_nope'],
    });
    expect(unknownDestination.status).toBe(400);
    const impossible = await call<{ error: { message: string } }>('POST', '/alerts/rules', {
      name: 'x',
      metric: 'e2e_success',
      comparison: 'lt',
      threshold: 1.5,
    });
    expect(impossible.status).toBe(400);
    expect(impossible.body.error.message).toMatch(/threshold of e2e_success is a fraction from 0 to 1, got 1\.5/);

    const created = await call<{ rule: { id: string; windowSeconds: number; forSeconds: number } }>(
      'POST',
      '/alerts/rules',
      {
        name: 'checkout success',
        metric: 'e2e_success',
        comparison: 'lt',
        threshold: 0.9,
        filters: { agent: 'checkout' },
        labels: { team: 'payments' },
        description: 'end-to-end success of checkout',
      },
    );
    expect(created.status).toBe(201);
    expect(created.body.rule).toMatchObject({ windowSeconds: 3600, forSeconds: 0 });
    const id = created.body.rule.id;
    const updated = await call<{ rule: { threshold: number } }>('PUT', `/alerts/rules/${id}`, {
      name: 'checkout success',
      metric: 'e2e_success',
      comparison: 'lt',
      threshold: 0.8,
    });
    expect(updated.body.rule.threshold).toBe(0.8);
    expect((await call<{ rules: unknown[] }>('GET', '/alerts/rules')).body.rules).toHaveLength(1);
    expect((await call('GET', `/alerts/rules/${id}`)).status).toBe(200);
    expect((await call('DELETE', `/alerts/rules/${id}`)).status).toBe(200);
    expect((await call('GET', `/alerts/rules/${id}`)).status).toBe(404);
    expect((await call<{ events: unknown[] }>('GET', '/alerts/history')).status).toBe(200);
  });

  it('documents every alerts route in the OpenAPI document', async () => {
    const doc = await call<{ paths: Record<string, Record<string, unknown>> }>('GET', '/openapi.json');
    expect(
      Object.keys(doc.body.paths)
        .filter((p) => p.startsWith('/alerts'))
        .sort(),
    ).toEqual([
      '/alerts/destinations',
      '/alerts/destinations/{destinationId}',
      '/alerts/destinations/{destinationId}/rotate-secret',
      '/alerts/destinations/{destinationId}/test',
      '/alerts/history',
      '/alerts/notifications',
      '/alerts/notifications/{notificationId}',
      '/alerts/notifications/{notificationId}/redeliver',
      '/alerts/rules',
      '/alerts/rules/{ruleId}',
      '/alerts/state',
    ]);
    expect(doc.body.paths['/alerts/rules']).toHaveProperty('post');
  });
});
