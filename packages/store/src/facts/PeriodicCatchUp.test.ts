import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../Store.js';
import { clientOf } from '../internal/storeRunners.js';
import { factRunIds } from './factRunIds.fixture.js';
import { PeriodicCatchUp } from './PeriodicCatchUp.js';
import type { RunFacts } from './RunFacts.js';

const MARGIN_MS = 600_000;
const FULL_EVERY_MS = 3_600_000;

/**
 * A run of a root and two steps written straight into `spans`, as another
 * process would (this store never hears of it), ingested `agoMs` ago by the
 * storage's clock.
 */
async function insertElsewhere(store: Store, runId: string, agoMs = 0): Promise<void> {
  await insertRunsElsewhere(store, 'p', [runId], agoMs);
}

/** insertElsewhere for many runs of `projectId` at once (their ids must be plain: letters, digits, dashes). */
async function insertRunsElsewhere(store: Store, projectId: string, runIds: string[], agoMs = 0): Promise<void> {
  await clientOf(store).command({
    query: `INSERT INTO spans (project_id, trace_id, span_id, parent_span_id, run_id, is_run_root, name, step_kind, step_name,
        start_time, end_time, status_code, ingested_at)
      SELECT '${projectId}', 't-' || run, if(n = 0, 'root', 's' || toString(n)), if(n = 0, '', 'root'), run,
        n = 0, if(n = 0, 'agent', 'tool'), if(n = 0, 'run', 'tool'), if(n = 0, '', 'fetch'),
        toDateTime64('2026-11-28 10:00:00', 9, 'UTC') + toIntervalMillisecond(n),
        toDateTime64('2026-11-28 10:00:01', 9, 'UTC'), 1, now64(3) - toIntervalMillisecond(${agoMs})
      FROM (SELECT arrayJoin([${runIds.map((r) => `'${r}'`).join(', ')}]) AS run) AS runs
      CROSS JOIN (SELECT number AS n FROM numbers(3)) AS steps`,
  });
}

describe('PeriodicCatchUp (the split roles’ leader finding runs other processes stored)', () => {
  let dir: string;
  let store: Store;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-periodic-catchup-'));
    store = await Store.open({ kind: 'embedded', dataDir: dir }, { reconcile: false });
  }, 120_000);
  afterAll(async () => {
    await store?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('looks at every run first and every hour, in between only at runs ingested since its last look', async () => {
    let now = 1_000_000;
    const asked: Array<number | undefined> = [];
    let failNext = false;
    // the store's own run facts, with each scan's window recorded and one failure on demand
    const runFacts: Pick<RunFacts, 'catchUp' | 'storageNowMs'> = {
      storageNowMs: () => store.runFacts.storageNowMs(),
      catchUp: (opts = {}) => {
        asked.push(opts.ingestedSinceMs);
        if (failNext) {
          failNext = false;
          return Promise.reject(new Error('storage unreachable'));
        }
        return store.runFacts.catchUp(opts);
      },
    };
    const periodic = new PeriodicCatchUp(runFacts, {
      marginMs: MARGIN_MS,
      fullEveryMs: FULL_EVERY_MS,
      clock: () => now,
    });

    await insertElsewhere(store, 'a');
    const storageBefore = await store.runFacts.storageNowMs();
    expect(await periodic.scan()).toEqual({ full: true, stale: 1 });
    expect(asked).toEqual([undefined]);
    expect(await factRunIds(store, 'p')).toEqual(['a']);

    await insertElsewhere(store, 'b');
    now += 15_000;
    expect(await periodic.scan()).toEqual({ full: false, stale: 1 });
    // from the first scan's start by the storage's clock, less the margin
    const since = asked[1]!;
    expect(since).toBeGreaterThanOrEqual(storageBefore - MARGIN_MS);
    expect(since).toBeLessThan(storageBefore - MARGIN_MS + 60_000);
    expect(await factRunIds(store, 'p')).toEqual(['a', 'b']);

    // c ingested within the margin before the last scan began, d long before it
    await insertElsewhere(store, 'c', MARGIN_MS / 2);
    await insertElsewhere(store, 'd', 3 * MARGIN_MS);
    now += 15_000;
    expect(await periodic.scan()).toEqual({ full: false, stale: 1 });
    expect(await factRunIds(store, 'p')).toEqual(['a', 'b', 'c']);

    // a failed scan moves nothing on: the next one looks from where it did
    failNext = true;
    now += 15_000;
    await expect(periodic.scan()).rejects.toThrow('storage unreachable');
    now += 15_000;
    expect(await periodic.scan()).toEqual({ full: false, stale: 0 });
    expect(asked.at(-1)).toBe(asked.at(-2));
    expect(asked.at(-1)).toBeGreaterThan(since);

    // an hour after the first full scan, every run again: d is found
    now += FULL_EVERY_MS;
    expect(await periodic.scan()).toEqual({ full: true, stale: 1 });
    expect(asked.at(-1)).toBeUndefined();
    expect(await factRunIds(store, 'p')).toEqual(['a', 'b', 'c', 'd']);
    expect(await periodic.scan()).toEqual({ full: false, stale: 0 });
  });

  it('compares more runs ingested since than one statement takes, in several', async () => {
    const since = await store.runFacts.storageNowMs();
    const runIds = Array.from({ length: 4_500 }, (_, i) => `many-${String(i).padStart(4, '0')}`);
    await insertRunsElsewhere(store, 'q', runIds);
    expect(await store.runFacts.catchUp({ ingestedSinceMs: since })).toBe(runIds.length);
    expect(await factRunIds(store, 'q')).toEqual(runIds);
    expect(await store.runFacts.catchUp({ ingestedSinceMs: since })).toBe(0);
  });
});
