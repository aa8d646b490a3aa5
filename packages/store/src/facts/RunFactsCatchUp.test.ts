import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../Store.js';
import { m0003RunFacts } from '../migrations/0003_run_facts.js';
import { m0007Sessions } from '../migrations/0007_sessions.js';
import { buildRun } from '../testing/runBuilder.js';
import { clientOf } from '../internal/storeRunners.js';
import { factRunIds } from './factRunIds.fixture.js';

const T0 = BigInt(Date.now() - 3_600_000) * 1_000_000n;

describe('RunFacts.catchUp (a server catching up in the background after start)', () => {
  let dir: string;
  let store: Store;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-catchup-'));
    // one run per chunk: every run is its own turn in the queue
    store = await Store.open({ kind: 'embedded', dataDir: dir }, { reconcile: false, runFacts: { chunkRuns: 1 } });
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reports progress chunk by chunk, and a query finalises its own project’s stale runs ahead of the rest', async () => {
    const px = Array.from({ length: 6 }, (_, i) => `x${i}`);
    const py = ['y0', 'y1'];
    for (const runId of px)
      await store.insertSpans(
        buildRun({ runId, projectId: 'px', startNs: T0, steps: [{ kind: 'plan', name: 'plan' }] }),
      );
    for (const runId of py)
      await store.insertSpans(
        buildRun({ runId, projectId: 'py', startNs: T0, steps: [{ kind: 'tool', name: 'fetch' }] }),
      );
    await store.runFacts.flush();
    // as after a crash, or spans written by another process: the facts are gone
    const runFactsDdl = [
      m0003RunFacts.statements[0]!,
      ...m0007Sessions.statements.filter((s) => s.startsWith('ALTER TABLE run_facts')),
    ];
    for (const statement of ['DROP TABLE run_facts', ...runFactsDdl])
      await clientOf(store).command({ query: statement });

    const progress: Array<[number, number]> = [];
    let read: Promise<number> | undefined;
    const caughtUp = store.runFacts.catchUp({
      onProgress: (done, total) => {
        progress.push([done, total]);
        // a query for project py arrives as the catch-up starts (py's runs come last in its order)
        read ??= store.runFacts.beforeRead('py').then(() => store.runFacts.staleRuns());
      },
    });
    expect(await caughtUp).toBe(8);
    const staleWhenRead = await read;
    // py's runs were taken by the query's flush, ahead of the catch-up's chunks (at most one px chunk had started)
    expect(staleWhenRead).toBeLessThanOrEqual(px.length);
    expect(staleWhenRead).toBeGreaterThanOrEqual(px.length - 1);
    expect(progress[0]).toEqual([0, 8]);
    expect(progress.at(-1)).toEqual([8, 8]);
    expect(progress.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < progress.length; i++) expect(progress[i]![0]).toBeGreaterThanOrEqual(progress[i - 1]![0]);
    expect(store.runFacts.pendingRuns()).toBe(0);
    expect(store.runFacts.oldestPendingSince()).toBeUndefined();
    expect(await factRunIds(store, 'px')).toEqual(px);
    expect(await factRunIds(store, 'py')).toEqual(py);
    expect(await store.runFacts.catchUp()).toBe(0);
  });
});
