import { createServer } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { init, llm, plan, run, shutdown, telltaleStats, tool, validate } from '@telltale/sdk';
import type { TelltaleStats } from '@telltale/sdk';

export interface CollectorDownResult {
  mode: 'plain' | 'sdk';
  runs: number;
  spansPerRun: number;
  /** Per-run latency of the agent's own calls, µs. */
  p50Us: number;
  p99Us: number;
  maxUs: number;
  wallMs: number;
  /** Max event-loop delay while the agent ran, ms. */
  loopDelayMaxMs: number;
  /** Heap used after the first 10% of runs and at the end, and the max seen, MiB. */
  heapEarlyMiB: number;
  heapEndMiB: number;
  heapMaxMiB: number;
  rssMaxMiB: number;
  stats?: TelltaleStats;
  shutdownMs?: number;
}

/** A loopback port nothing listens on: connections are refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const io = <T>(v: T) => new Promise<T>((resolve) => setImmediate(() => resolve(v)));

/** One support ticket: plan, two lookups, a model call, a refund, a check (7 spans with the run). */
async function plainTicket(i: number): Promise<boolean> {
  await io(['lookup', 'answer']);
  const order = await io({ orderId: `ORD-${i}`, status: 'delivered' });
  await io({ customer: i % 97 });
  const reply = await io(`Order ${order.orderId} is ${order.status}`);
  await io({ refunded: true });
  return io(reply.includes(order.orderId));
}

async function sdkTicket(i: number): Promise<boolean> {
  return run('support-ticket', async () => {
    await plan('plan', () => io(['lookup', 'answer']));
    const order = await tool('lookup_order', { orderId: `ORD-${i}` }, () =>
      io({ orderId: `ORD-${i}`, status: 'delivered' }),
    );
    await tool('lookup_customer', { customer: i % 97 }, () => io({ customer: i % 97 }));
    const reply = await llm('answer', { model: 'gpt-4o-mini', provider: 'openai' }, async (step) => {
      step.recordUsage({ inputTokens: 420, outputTokens: 60 });
      return io(`Order ${order.orderId} is ${order.status}`);
    });
    await tool('refund_order', { orderId: order.orderId }, () => io({ refunded: true }));
    return validate('mentions-order', () => io(reply.includes(order.orderId)));
  });
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
const mib = (b: number) => b / 2 ** 20;

/** Runs the agent `runs` times, with the SDK exporting to a closed port or without the SDK. */
export async function agentWithCollectorDown(mode: 'plain' | 'sdk', runs: number): Promise<CollectorDownResult> {
  if (mode === 'sdk') {
    init({ service: 'collector-down', endpoint: `http://127.0.0.1:${await closedPort()}`, onError: () => undefined });
  }
  const before = telltaleStats(); // counters are process-wide: report this agent's share
  const ticket = mode === 'sdk' ? sdkTicket : plainTicket;
  for (let i = 0; i < 200; i++) await ticket(i); // warm-up
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const latencies: number[] = [];
  let heapEarly = 0;
  let heapMax = 0;
  let rssMax = 0;
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) {
    const s = process.hrtime.bigint();
    await ticket(i);
    latencies.push(Number(process.hrtime.bigint() - s) / 1000);
    if (i % 200 === 0) {
      const m = process.memoryUsage();
      heapMax = Math.max(heapMax, m.heapUsed);
      rssMax = Math.max(rssMax, m.rss);
      if (i <= runs / 10) heapEarly = m.heapUsed;
    }
  }
  const wallMs = performance.now() - t0;
  loop.disable();
  const end = process.memoryUsage();
  latencies.sort((a, b) => a - b);
  const result: CollectorDownResult = {
    mode,
    runs,
    spansPerRun: mode === 'sdk' ? 7 : 0,
    p50Us: pct(latencies, 0.5),
    p99Us: pct(latencies, 0.99),
    maxUs: latencies.at(-1)!,
    wallMs,
    loopDelayMaxMs: loop.max / 1e6,
    heapEarlyMiB: mib(heapEarly),
    heapEndMiB: mib(end.heapUsed),
    heapMaxMiB: mib(heapMax),
    rssMaxMiB: mib(rssMax),
  };
  if (mode === 'sdk') {
    const now = telltaleStats();
    result.stats = {
      queuedSpans: now.queuedSpans - before.queuedSpans,
      exportingSpans: now.exportingSpans - before.exportingSpans,
      droppedSpans: now.droppedSpans - before.droppedSpans,
      exportedSpans: now.exportedSpans - before.exportedSpans,
      failedSpans: now.failedSpans - before.failedSpans,
    };
    const s = performance.now();
    await shutdown({ timeoutMs: 5000 });
    result.shutdownMs = performance.now() - s;
  }
  return result;
}
