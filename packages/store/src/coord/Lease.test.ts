import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../Store.js';
import { clientOf } from '../internal/storeRunners.js';
import type { Lease } from './Lease.js';
import { LEASES_DDL, liveCandidates, writeCandidacy } from './leaseSql.js';

/** Short periods keep the test quick; the bounds below leave a loaded machine room. */
const TTL_MS = 2_000;
const RENEW_MS = 250;
const SETTLE_MS = 200;
const WAIT_MS = 15_000;

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const got = await probe();
    if (got !== undefined) return got;
    if (Date.now() > deadline) throw new Error(`${what} not reached in ${WAIT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('Lease (candidates sharing one storage)', () => {
  let dir: string;
  let store: Store;
  let started: Lease[] = [];
  let leaseNo = 0;
  /** Holds and steps-downs in order, per owner. */
  let log: { owner: string; held: boolean; atMs: number }[] = [];

  const candidate = (name: string, owner: string, opts: { ttlMs?: number } = {}): Lease => {
    const lease = store.lease({
      name,
      owner,
      ttlMs: opts.ttlMs ?? TTL_MS,
      renewMs: RENEW_MS,
      settleMs: SETTLE_MS,
      onAcquired: () => void log.push({ owner, held: true, atMs: Date.now() }),
      onLost: () => void log.push({ owner, held: false, atMs: Date.now() }),
    });
    started.push(lease);
    return lease;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-lease-'));
    store = await Store.open({ kind: 'embedded', dataDir: dir }, { reconcile: false });
    // embedded mode needs no leases; the table is made by the locked (remote) migrations
    await clientOf(store).command({ query: LEASES_DDL });
  });
  afterEach(async () => {
    await Promise.all(started.map((l) => l.stop()));
    started = [];
    log = [];
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('candidates agree on one holder, the earliest, and only it ever holds', async () => {
    const name = `agree-${leaseNo++}`;
    const leases = ['c', 'a', 'b'].map((owner) => candidate(name, owner));
    for (const l of leases) l.start();
    // everyone sees all three, with the same holder first
    const holder = await until('agreement', () => {
      const views = leases.map((l) => l.members().map((m) => m.owner));
      return views.every((v) => v.length === 3 && v[0] === views[0]![0]) && leases.some((l) => l.isHeld)
        ? views[0]![0]
        : undefined;
    });
    // the earliest term leads (the owner breaks a tie within one millisecond)
    const earliest = [...leases[0]!.members()].sort(
      (x, y) => x.termStartedMs - y.termStartedMs || (x.owner < y.owner ? -1 : 1),
    )[0]!;
    expect(holder).toBe(earliest.owner);
    // over several renewals: exactly one holds, always the same
    const observeUntil = Date.now() + 6 * RENEW_MS;
    while (Date.now() < observeUntil) {
      expect(leases.filter((l) => l.isHeld).map((l) => l.owner)).toEqual([holder]);
      await new Promise((resolve) => setTimeout(resolve, RENEW_MS / 2));
    }
    expect(log).toEqual([{ owner: holder, held: true, atMs: expect.any(Number) as number }]);
  });

  it('a candidate takes over once a dead holder’s candidacy lapses, not before', async () => {
    const name = `expiry-${leaseNo++}`;
    const client = clientOf(store);
    // a holder that wrote once and died: earliest term, never renewed
    const diedAt = Date.now();
    await writeCandidacy(client, { name, owner: 'dead', role: 'worker', termStartedMs: 1, ttlMs: TTL_MS });
    const next = candidate(name, 'next');
    next.start();
    await until('the next candidate sees the dead one', () => (next.members().length === 2 ? true : undefined));
    expect(next.members()[0]!.owner).toBe('dead');
    expect(next.isHeld).toBe(false);
    await until('takeover', () => (next.isHeld ? true : undefined));
    const tookOverAt = log.find((e) => e.owner === 'next' && e.held)!.atMs;
    // not before the lapse (storage clock = this process's clock with chDB), within a few renewals after it
    expect(tookOverAt - diedAt).toBeGreaterThanOrEqual(TTL_MS - 50);
    expect(tookOverAt - diedAt).toBeLessThan(TTL_MS + WAIT_MS);
    expect((await liveCandidates(client, name)).map((c) => c.owner)).toEqual(['next']);
  });

  it('a stopped holder steps down and withdraws at once: the next takes over long before its lease would lapse', async () => {
    const name = `withdraw-${leaseNo++}`;
    const ttlMs = 60_000;
    const first = candidate(name, 'first', { ttlMs });
    const second = candidate(name, 'second', { ttlMs });
    first.start();
    await until('first holds', () => (first.isHeld ? true : undefined));
    second.start();
    await until('second sees first', () => (second.members().length === 2 ? true : undefined));
    expect(second.isHeld).toBe(false);

    const stoppedAt = Date.now();
    await first.stop();
    expect(first.isHeld).toBe(false);
    expect(log.filter((e) => e.owner === 'first').map((e) => e.held)).toEqual([true, false]);
    expect((await liveCandidates(clientOf(store), name)).map((c) => c.owner)).toEqual(['second']);
    await until('second holds', () => (second.isHeld ? true : undefined));
    // a lapse would take 60 s: the withdrawal hands over within renewals
    expect(Date.now() - stoppedAt).toBeLessThan(ttlMs / 2);
    // and the stopped one stays out: it neither renews nor takes the lease back
    await until('second renews past the stop', () =>
      second.members().length === 1 && second.members()[0]!.owner === 'second' ? true : undefined,
    );
    expect(first.isHeld).toBe(false);
  });

  it('acquire() waits for the lease and times out with the holder named', async () => {
    const name = `acquire-${leaseNo++}`;
    const holder = candidate(name, 'holder');
    await holder.acquire(WAIT_MS);
    expect(holder.isHeld).toBe(true);
    const waiter = candidate(name, 'waiter');
    await expect(waiter.acquire(600)).rejects.toThrow(/not acquired in 600 ms \(held by holder\)/);
    expect(waiter.isHeld).toBe(false);
  });
});
