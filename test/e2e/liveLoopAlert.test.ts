import { WebhookReceiver } from '@telltale/alerts';
import { createTelltale, createTracerProvider } from '@telltale/sdk';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

interface Payload {
  type: string;
  status: 'firing' | 'resolved';
  value: number | null;
  labels: Record<string, string>;
}

async function post<T>(proc: TelltaleProcess, path: string, body: unknown): Promise<T> {
  const res = await fetch(`${proc.url}/api/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as T;
}

describe('live loop alert (real server, SDK with its default batching, real receiver)', () => {
  let proc: TelltaleProcess;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    proc = await TelltaleProcess.start({ args: ['--alerts-allow-private', '127.0.0.0/8'] });
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await receiver.close();
    await proc.dispose();
  });

  it(
    'arrives while the looping run is still open, within 10 s of the third repetition, and resolves once when it ends',
    { timeout: 60_000 },
    async () => {
      const { destination, secret } = await post<{ destination: { id: string }; secret: string }>(
        proc,
        '/alerts/destinations',
        { name: 'loops', url: receiver.url },
      );
      await post(proc, '/alerts/rules', {
        name: 'any loop',
        metric: 'any_loop',
        comparison: 'gt',
        threshold: 0,
        windowSeconds: 600,
        evaluationIntervalSeconds: 3600,
        destinationIds: [destination.id],
      });

      const provider = createTracerProvider({ service: 'looping-svc', endpoint: proc.url });
      const tt = createTelltale({ tracerProvider: provider });
      let thirdAt = 0;
      let firingAt = 0;
      let runId = '';
      let openWhenFired = false;
      await tt.run('looper', async (run) => {
        runId = run.runId;
        for (let i = 1; i <= 3; i++)
          await tt.tool('search', { q: 'same query' }, () => new Promise((r) => setTimeout(r, 100)));
        thirdAt = Date.now();
        // the run stays open until the alert arrives
        const [firing] = await receiver.waitFor(1, 20_000);
        firingAt = firing!.atMs;
        openWhenFired = true;
      });
      await provider.forceFlush();
      const [, resolved] = await receiver.waitFor(2, 20_000);
      await provider.shutdown();

      expect(openWhenFired).toBe(true);
      expect(firingAt - thirdAt).toBeLessThan(10_000);
      const [firingBody, resolvedBody] = receiver.received.map(
        (r) => new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as Payload,
      );
      expect(firingBody).toMatchObject({
        status: 'firing',
        value: 3,
        labels: { runId, loopKind: 'repeated_action', tool: 'search', service: 'looping-svc' },
      });
      expect(resolvedBody).toMatchObject({ status: 'resolved', labels: { runId } });
      expect(resolved!.headers['webhook-id']).not.toBe(receiver.received[0]!.headers['webhook-id']);
      await new Promise((r) => setTimeout(r, 1_500));
      expect(receiver.received).toHaveLength(2);
      console.log(`live loop alert ${firingAt - thirdAt} ms after the third repetition`);
    },
  );
});
