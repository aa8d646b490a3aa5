import { WebhookReceiver } from '@telltale/alerts';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnyLoopRule, runLooperUntilAlerted } from './harness/loopAlert.js';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

interface Payload {
  type: string;
  status: 'firing' | 'resolved';
  value: number | null;
  labels: Record<string, string>;
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
      const { secret } = await createAnyLoopRule(proc, receiver.url);
      const { runId, thirdAt, firingAt, openWhenFired, shutdown } = await runLooperUntilAlerted(
        proc.url,
        receiver,
        20_000,
      );
      const [, resolved] = await receiver.waitFor(2, 20_000);
      await shutdown();

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
