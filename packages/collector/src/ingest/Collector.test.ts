import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SPAN_LIMITS } from '../normalise/spanLimits.js';
import { Rng, randomSpans } from '../otlp/randomSpans.fixture.js';
import { Collector } from './Collector.js';

// random start times span 2020–2030: let them all through
const limits = { ...DEFAULT_SPAN_LIMITS, maxAgeMs: 20 * 365 * 86_400_000, maxFutureMs: 20 * 365 * 86_400_000 };

/** An insert that stores nothing until opened: the spool's backlog stays put while it is closed. */
class Gate {
  private waiting: (() => void)[] = [];
  private isOpen = false;
  inserts = 0;
  readonly insert = async (messages: AsyncIterable<Uint8Array>): Promise<void> => {
    for await (const m of messages) void m;
    if (!this.isOpen) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.inserts++;
  };
  open(): void {
    this.isOpen = true;
    for (const go of this.waiting.splice(0)) go();
  }
}

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const done of cleanup.splice(0).reverse()) await done();
});

type Insert = (messages: AsyncIterable<Uint8Array>) => Promise<void>;

/** A collector whose project is the `authorization` it is sent, served on its own OTLP/HTTP handler. */
async function openAt(dir: string, insert: Insert, maxBatchSpans?: number): Promise<Collector> {
  return Collector.open({
    spool: { dir },
    storage: { insert, ...(maxBatchSpans === undefined ? {} : { maxBatchSpans }) },
    workers: 0,
    limits: { spans: limits },
    policy: { authenticate: (authorization) => authorization },
  });
}

async function openCollector(gate: Gate, opts: { maxBatchSpans?: number } = {}): Promise<Collector> {
  const dir = await mkdtemp(join(tmpdir(), 'telltale-collector-'));
  const collector = await openAt(dir, gate.insert, opts.maxBatchSpans);
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  cleanup.push(async () => {
    gate.open();
    await collector.close();
  });
  return collector;
}

/** Sends 20 random spans as project `projectId` through the collector's HTTP handler; resolves once they are acknowledged. */
async function acknowledge(collector: Collector, projectId: string, seed: number): Promise<void> {
  const body = ProtobufTraceSerializer.serializeRequest(randomSpans(new Rng(seed), 20))!;
  const server = createServer(collector.httpHandler());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/x-protobuf', authorization: projectId },
      signal: AbortSignal.timeout(10_000),
    });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('Collector.caughtUp', () => {
  it("waits for the asking project's acknowledged spans only, not for other projects' backlog", async () => {
    const gate = new Gate();
    const collector = await openCollector(gate);
    await acknowledge(collector, 'a', 1);
    expect(collector.backlogSpans).toBeGreaterThan(0);

    // the insert holding a's spans is stuck: a waits and gives up, b (nothing sent) and c (never seen) do not wait
    const waited = performance.now();
    expect(await collector.caughtUp(200, 'a')).toBe(false);
    expect(performance.now() - waited).toBeGreaterThanOrEqual(190); // a backlog within one batch is waited for
    expect(await collector.caughtUp(200)).toBe(false);
    expect(await collector.caughtUp(10_000, 'b')).toBe(true);
    expect(await collector.caughtUp(10_000, 'c')).toBe(true);

    // once b sends too, b waits for its own spans (queued behind a's)
    await acknowledge(collector, 'b', 2);
    expect(await collector.caughtUp(200, 'b')).toBe(false);

    gate.open();
    expect(await collector.caughtUp(10_000, 'a')).toBe(true);
    expect(await collector.caughtUp(10_000, 'b')).toBe(true);
    expect(collector.backlogSpans).toBe(0);
    expect(gate.inserts).toBeGreaterThan(0);
  });

  it('does not wait for a backlog of more than one batch that the drainer could not store within the wait', async () => {
    const gate = new Gate();
    // batches of at most 10 spans: a's requests of 20 make a backlog of several batches, and nothing is being stored
    const collector = await openCollector(gate, { maxBatchSpans: 10 });
    for (let seed = 1; seed <= 3; seed++) await acknowledge(collector, 'a', seed);
    expect(collector.backlogSpans).toBeGreaterThan(10);
    const asked = performance.now();
    expect(await collector.caughtUp(5_000, 'a')).toBe(false);
    expect(performance.now() - asked).toBeLessThan(1_000);

    gate.open();
    await collector.drained(10_000);
    expect(collector.backlogSpans).toBe(0);
    expect(await collector.caughtUp(5_000, 'a')).toBe(true);
  });

  it('makes every project wait for what a previous process left in the spool', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'telltale-collector-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const down = (): Promise<void> => Promise.reject(new Error('storage down'));
    const before = await openAt(dir, down);
    await acknowledge(before, 'a', 3);
    await before.close(0); // stops with a's spans still in the spool

    const gate = new Gate();
    const after = await openAt(dir, gate.insert);
    cleanup.push(async () => {
      gate.open();
      await after.close();
    });
    expect(after.backlogSpans).toBeGreaterThan(0);
    expect(await after.caughtUp(200, 'b')).toBe(false);
    gate.open();
    expect(await after.caughtUp(10_000, 'b')).toBe(true);
  });
});

describe('holding requests while storage is behind', () => {
  /** Resolves once `ready` holds, checked every 10 ms for at most 5 s. */
  async function until(ready: () => boolean): Promise<void> {
    for (let waited = 0; !ready(); waited += 10) {
      if (waited > 5_000) throw new Error('timed out');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** A collector on a stalled store (`gate`) recording each request's hold in ms. */
  async function openHolding(
    gate: Gate,
    maxBatchSpans: number,
    backlogHoldSpans?: number,
  ): Promise<{ collector: Collector; holds: number[] }> {
    const dir = await mkdtemp(join(tmpdir(), 'telltale-collector-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const holds: number[] = [];
    const collector = await Collector.open({
      spool: { dir },
      storage: { insert: gate.insert, maxBatchSpans },
      workers: 0,
      limits: { spans: limits, ...(backlogHoldSpans === undefined ? {} : { backlogHoldSpans }) },
      policy: { authenticate: (authorization) => authorization },
      observe: { onDone: (done) => holds.push(done.stages?.hold ?? Number.NaN) },
    });
    cleanup.push(async () => {
      gate.open();
      await collector.close();
    });
    return { collector, holds };
  }

  it('holds requests past four drain batches of backlog, for the batch size it was given', async () => {
    // batches of 10 spans: requests wait past a backlog of 40
    const { collector, holds } = await openHolding(new Gate(), 10);

    // storage stalled: a request goes on while the backlog is at most 40 spans, and waits once it is past
    const before: number[] = [];
    for (let seed = 1; before.length === 0 || before.at(-1)! <= 40; seed++) {
      before.push(collector.backlogSpans);
      await acknowledge(collector, 'a', seed);
      await until(() => holds.length === before.length);
    }
    expect(before.length).toBeGreaterThanOrEqual(3);
    expect(holds.slice(0, -1).every((ms) => ms < 500)).toBe(true);
    expect(holds.at(-1)).toBeGreaterThanOrEqual(950);
  });

  it('holds a request past the backlog limit until storage catches up, and for at most a second', async () => {
    const gate = new Gate();
    // one request per insert; a request waits once anything waits to be stored
    const { collector, holds } = await openHolding(gate, 1, 1);

    // nothing waits: not held
    await acknowledge(collector, 'a', 1);
    await until(() => holds.length === 1);
    expect(holds[0]).toBeLessThan(100);
    const first = collector.backlogSpans;
    expect(first).toBeGreaterThan(1);

    // storage stalled: the next request waits the longest hold, then is kept anyway (the spool's cap still applies)
    const asked = performance.now();
    await acknowledge(collector, 'a', 2);
    expect(performance.now() - asked).toBeGreaterThanOrEqual(950);
    await until(() => holds.length === 2);
    expect(holds[1]).toBeGreaterThanOrEqual(950);
    expect(collector.backlogSpans).toBeGreaterThan(first);

    // storage resumes while a request is held: it goes on once the backlog is back under the limit
    const held = acknowledge(collector, 'a', 3);
    await new Promise((resolve) => setTimeout(resolve, 200));
    gate.open();
    await held;
    await until(() => holds.length === 3);
    expect(holds[2]).toBeGreaterThanOrEqual(150);
    expect(holds[2]).toBeLessThan(900);
    await collector.drained(10_000);
    expect(collector.backlogSpans).toBe(0);
  });
});
