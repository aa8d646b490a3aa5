import type { WebhookReceiver } from '@telltale/alerts';
import { createTelltale, createTracerProvider } from '@telltale/sdk';
import { expect } from 'vitest';
import type { TelltaleProcess } from './TelltaleProcess.js';

async function postCreated<T>(proc: TelltaleProcess, path: string, body: unknown): Promise<T> {
  const res = await fetch(`${proc.url}/api/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as T;
}

/**
 * Through the API of `proc`: a webhook destination `loops` to `receiverUrl`
 * and the rule `any loop` (any_loop > 0 over 10 min) sending to it, narrowed
 * by `filters` when given. The destination's signing secret.
 */
export async function createAnyLoopRule(
  proc: TelltaleProcess,
  receiverUrl: string,
  filters?: Record<string, string>,
): Promise<{ secret: string }> {
  const { destination, secret } = await postCreated<{ destination: { id: string }; secret: string }>(
    proc,
    '/alerts/destinations',
    { name: 'loops', url: receiverUrl },
  );
  await postCreated(proc, '/alerts/rules', {
    name: 'any loop',
    metric: 'any_loop',
    comparison: 'gt',
    threshold: 0,
    windowSeconds: 600,
    evaluationIntervalSeconds: 3600,
    ...(filters === undefined ? {} : { filters }),
    destinationIds: [destination.id],
  });
  return { secret };
}

/**
 * A `looper` run of service `looping-svc`, exported to `endpoint`, that calls
 * the tool `search` with the same arguments three times and stays open until
 * the receiver has its first notification (within `waitMs`). Its provider is
 * flushed but not shut down: the caller does that once it has what it waits for.
 */
export async function runLooperUntilAlerted(
  endpoint: string,
  receiver: WebhookReceiver,
  waitMs: number,
): Promise<{
  runId: string;
  thirdAt: number;
  firingAt: number;
  openWhenFired: boolean;
  shutdown: () => Promise<void>;
}> {
  const provider = createTracerProvider({ service: 'looping-svc', endpoint });
  const tt = createTelltale({ tracerProvider: provider });
  let runId = '';
  let thirdAt = 0;
  let firingAt = 0;
  let openWhenFired = false;
  await tt.run('looper', async (run) => {
    runId = run.runId;
    for (let i = 1; i <= 3; i++)
      await tt.tool('search', { q: 'same query' }, () => new Promise((r) => setTimeout(r, 100)));
    thirdAt = Date.now();
    // the run stays open until the alert arrives
    const [firing] = await receiver.waitFor(1, waitMs);
    firingAt = firing!.atMs;
    openWhenFired = true;
  });
  await provider.forceFlush();
  return { runId, thirdAt, firingAt, openWhenFired, shutdown: () => provider.shutdown() };
}
