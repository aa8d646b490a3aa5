import { describe, expect, it } from 'vitest';
import { Readiness } from './Readiness.js';
import type { CatchUpState } from './RunFactsCatchUp.js';

function readiness(state: { current?: boolean | Error; usedBytes?: number; catchUp?: CatchUpState; slowMs?: number }): {
  readiness: Readiness;
  calls: () => number;
  now: { ms: number };
} {
  let calls = 0;
  const now = { ms: 0 };
  const r = new Readiness({
    schemaCurrent: async () => {
      calls++;
      if (state.slowMs !== undefined) await new Promise((resolve) => setTimeout(resolve, state.slowMs));
      if (state.current instanceof Error) throw state.current;
      return state.current ?? true;
    },
    spool: () => ({ usedBytes: state.usedBytes ?? 0, capacityBytes: 1_000 }),
    catchUp: () => state.catchUp ?? { state: 'caught_up', done: 5, total: 5 },
    storageTimeoutMs: 50,
    clock: () => now.ms,
  });
  return { readiness: r, calls: () => calls, now };
}

describe('Readiness (what /readyz answers)', () => {
  it('is ready when storage answers with the schema current, the spool is under its mark and the run facts are caught up', async () => {
    const report = await readiness({}).readiness.check();
    expect(report).toMatchObject({
      ready: true,
      reasons: [],
      checks: { storage: 'ok', migrations: 'applied', spool: { usedBytes: 0, maxBytes: 1_000, highWaterBytes: 900 } },
    });
  });

  it('is not ready while the run facts catch up, saying how far they are', async () => {
    const report = await readiness({
      catchUp: { state: 'catching_up', done: 2_000, total: 100_000 },
    }).readiness.check();
    expect(report.ready).toBe(false);
    expect(report.reasons).toEqual(['catching up run facts: 2000/100000 runs']);
    expect(report.checks.runFacts).toEqual({ state: 'catching_up', done: 2_000, total: 100_000 });
  });

  it('names every reason: storage unreachable, spool past its high-water mark, a catch-up retrying', async () => {
    const report = await readiness({
      current: new Error('connect ECONNREFUSED'),
      usedBytes: 950,
      catchUp: { state: 'catching_up', done: 0, total: 0, lastError: 'socket hang up' },
    }).readiness.check();
    expect(report.ready).toBe(false);
    expect(report.checks).toMatchObject({ storage: 'unreachable', migrations: 'unknown' });
    expect(report.reasons).toEqual([
      'storage unreachable: connect ECONNREFUSED',
      'spool above its high-water mark: 950 of 1000 bytes used (storage is behind or unreachable)',
      'catching up run facts: looking for stale runs (retrying: socket hang up)',
    ]);
  });

  it('says so when migrations are not applied, and when storage does not answer in time', async () => {
    expect((await readiness({ current: false }).readiness.check()).reasons).toEqual([
      'migrations not applied: the storage schema is behind this version',
    ]);
    expect((await readiness({ slowMs: 1_000 }).readiness.check()).reasons).toEqual([
      'storage unreachable: no answer within 50 ms',
    ]);
  });

  it('asks storage at most once a second however often it is probed', async () => {
    const { readiness: r, calls, now } = readiness({});
    await Promise.all([r.check(), r.check(), r.check()]);
    now.ms += 999;
    await r.check();
    expect(calls()).toBe(1);
    now.ms += 1;
    await r.check();
    expect(calls()).toBe(2);
  });
});
