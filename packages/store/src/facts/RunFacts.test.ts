import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../Store.js';
import { m0003RunFacts } from '../migrations/0003_run_facts.js';
import { m0007Sessions } from '../migrations/0007_sessions.js';
import { buildRun } from '../testing/runBuilder.js';
import { clientOf } from '../internal/storeRunners.js';
import { encodeSpanRecordBatch } from '../spans/arrow/encodeSpanRecordBatch.js';
import { computeRequestFacts } from './incremental/requestFacts.js';

const T0 = BigInt(Date.now() - 3_600_000) * 1_000_000n;

async function factRows(
  store: Store,
  projectId: string,
): Promise<Array<{ run_id: string; outcome: string; steps: number }>> {
  const result = await clientOf(store).query({
    query: 'SELECT run_id, outcome, steps FROM run_facts FINAL WHERE project_id = {projectId:String} ORDER BY run_id',
    format: 'JSONEachRow',
    query_params: { projectId },
  });
  return (await result.json<{ run_id: string; outcome: string; steps: number | string }>()).map((r) => ({
    ...r,
    steps: Number(r.steps),
  }));
}

describe('RunFacts (the finaliser of per-run facts)', () => {
  let dir: string;
  let store: Store;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-facts-'));
    store = await Store.open({ kind: 'embedded', dataDir: dir });
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps stored runs pending until a flush finalises them, and finalises a run again when more spans come', async () => {
    const spans = buildRun({
      runId: 'a1',
      projectId: 'pa',
      startNs: T0,
      withRoot: false,
      steps: [{ kind: 'plan', name: 'plan' }],
    });
    await store.insertSpans(spans);
    expect(store.runFacts.pendingRuns()).toBe(1);
    expect(await factRows(store, 'pa')).toEqual([]);
    await store.runFacts.flush('pa');
    expect(store.runFacts.pendingRuns()).toBe(0);
    expect(await factRows(store, 'pa')).toEqual([{ run_id: 'a1', outcome: 'incomplete', steps: 1 }]);

    // the root arrives later with one more step: the run is finalised again, and its newer row wins
    const more = buildRun({
      runId: 'a1',
      projectId: 'pa',
      startNs: T0,
      steps: [
        { kind: 'plan', name: 'plan' },
        { kind: 'tool', name: 'search' },
      ],
    });
    await store.insertSpans(more.filter((s) => s.stepKind === 'run' || s.stepName === 'search'));
    await store.runFacts.flush('pa');
    expect(await factRows(store, 'pa')).toEqual([{ run_id: 'a1', outcome: 'success', steps: 2 }]);
  });

  it('flushes only the project asked for', async () => {
    await store.insertSpans(
      buildRun({ runId: 'b1', projectId: 'pb', startNs: T0, steps: [{ kind: 'plan', name: 'plan' }] }),
    );
    await store.insertSpans(
      buildRun({ runId: 'c1', projectId: 'pc', startNs: T0, steps: [{ kind: 'plan', name: 'plan' }] }),
    );
    await store.runFacts.flush('pb');
    expect(store.runFacts.pendingRuns()).toBe(1);
    expect(await factRows(store, 'pc')).toEqual([]);
    await store.runFacts.flush();
    expect((await factRows(store, 'pc')).map((r) => r.run_id)).toEqual(['c1']);
  });

  it('keeps the runs pending when finalising fails, and finalises them once the storage works again', async () => {
    await store.insertSpans(
      buildRun({ runId: 'd1', projectId: 'pd', startNs: T0, steps: [{ kind: 'tool', name: 'fetch' }] }),
    );
    await clientOf(store).command({ query: 'RENAME TABLE run_facts TO run_facts_away' });
    try {
      await expect(store.runFacts.flush('pd')).rejects.toThrow(/run_facts/);
      expect(store.runFacts.pendingRuns()).toBe(1);
    } finally {
      await clientOf(store).command({ query: 'RENAME TABLE run_facts_away TO run_facts' });
    }
    await store.runFacts.flush('pd');
    expect(store.runFacts.pendingRuns()).toBe(0);
    expect(await factRows(store, 'pd')).toEqual([{ run_id: 'd1', outcome: 'success', steps: 1 }]);
  });

  it('reconciles runs whose facts are missing or saw fewer spans', async () => {
    await store.insertSpans(
      buildRun({ runId: 'f1', projectId: 'pf', startNs: T0, steps: [{ kind: 'plan', name: 'plan' }] }),
    );
    await store.runFacts.flush();
    // as if written by another process: facts gone for every run
    const runFactsDdl = [
      m0003RunFacts.statements[0]!,
      ...m0007Sessions.statements.filter((s) => s.startsWith('ALTER TABLE run_facts')),
    ];
    for (const statement of ['DROP TABLE run_facts', ...runFactsDdl])
      await clientOf(store).command({ query: statement });
    expect(await store.runFacts.reconcile()).toBe(5); // runs a1, b1, c1, d1 and f1
    expect(await store.runFacts.reconcile()).toBe(0);
    expect((await factRows(store, 'pf')).map((r) => r.run_id)).toEqual(['f1']);
    expect(await factRows(store, 'pa')).toEqual([{ run_id: 'a1', outcome: 'success', steps: 2 }]);
  });
});

describe('RunFacts.stop within a time limit (a server stopping under heavy ingest)', () => {
  let dir: string;
  let store: Store;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-facts-stop-'));
    // chunks of one run: 10 pending runs are 10 chunks
    store = await Store.open({ kind: 'embedded', dataDir: dir }, { runFacts: { chunkRuns: 1 } });
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts no chunk after the limit, leaves the rest pending, and reconcile finalises it', async () => {
    const ids = Array.from({ length: 10 }, (_, i) => `s${i}`);
    for (const runId of ids)
      await store.insertSpans(
        buildRun({ runId, projectId: 'ps', startNs: T0, steps: [{ kind: 'plan', name: 'plan' }] }),
      );
    expect(store.runFacts.pendingRuns()).toBe(ids.length);
    await store.runFacts.stop(0);
    // the limit passed before the first chunk: nothing was finalised, everything is still pending
    expect(store.runFacts.pendingRuns()).toBe(ids.length);
    expect(await factRows(store, 'ps')).toEqual([]);
    // what the next open does: facts missing for these runs, so they are finalised
    expect(await store.runFacts.reconcile()).toBe(ids.length);
    expect((await factRows(store, 'ps')).map((r) => r.run_id)).toEqual(ids);
    expect(store.runFacts.pendingRuns()).toBe(0);
  });

  it('holds a flush already under way (a background burst) to the limit too', async () => {
    const ids = Array.from({ length: 10 }, (_, i) => `u${i}`);
    for (const runId of ids)
      await store.insertSpans(
        buildRun({ runId, projectId: 'pu', startNs: T0, steps: [{ kind: 'plan', name: 'plan' }] }),
      );
    const underWay = store.runFacts.flush();
    await store.runFacts.stop(0);
    await underWay;
    // at most the chunk it had started is written
    const written = (await factRows(store, 'pu')).length;
    expect(written).toBeLessThanOrEqual(1);
    expect(store.runFacts.pendingRuns()).toBe(ids.length - written);
    expect(await store.runFacts.reconcile()).toBe(ids.length - written);
    expect((await factRows(store, 'pu')).map((r) => r.run_id)).toEqual(ids);
  });
});

describe('RunFacts.beforeRead with a read wait (the server: heavy ingest must not hold a query for the whole backlog)', () => {
  let dir: string;
  let store: Store;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-facts-wait-'));
    // chunks of one run: a backlog of 20 runs is 20 chunks, 60 statements — far more than 20 ms of work
    store = await Store.open({ kind: 'embedded', dataDir: dir }, { runFacts: { chunkRuns: 1, readWaitMs: 20 } });
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('waits for a backlog of one chunk, so the query reads every stored run', async () => {
    await store.insertSpans(
      buildRun({ runId: 'w0', projectId: 'pw', startNs: T0, steps: [{ kind: 'plan', name: 'plan' }] }),
    );
    await store.runFacts.beforeRead('pw');
    expect((await factRows(store, 'pw')).map((r) => r.run_id)).toEqual(['w0']);
  });

  it('waits at most readWaitMs for a larger backlog, then the flush goes on and finalises every run', async () => {
    const ids = Array.from({ length: 20 }, (_, i) => `w${String(i + 1).padStart(2, '0')}`);
    for (const runId of ids)
      await store.insertSpans(
        buildRun({ runId, projectId: 'pw', startNs: T0, steps: [{ kind: 'plan', name: 'plan' }] }),
      );
    await store.runFacts.beforeRead('pw');
    const early = (await factRows(store, 'pw')).length;
    expect(early).toBeLessThan(1 + ids.length); // the query went ahead with part of the backlog still unfinalised
    await store.runFacts.flush('pw');
    expect((await factRows(store, 'pw')).map((r) => r.run_id)).toEqual(['w0', ...ids]);
  });
});

describe('RunFacts by SQL (reads only the time range of its runs\u2019 spans)', () => {
  let dir: string;
  let store: Store;
  const HOUR_NS = 3_600_000_000_000n;
  const NOW_NS = BigInt(Date.now()) * 1_000_000n;
  // ids as random as real ones (a run's trace id is its hex digits, padded)
  const id = (kind: string, i: number): string =>
    `r-${createHash('sha1').update(`${kind}${i}`).digest('hex').slice(0, 24)}`;
  const steps = (n: number): Array<{ kind: string; name: string }> =>
    Array.from({ length: n }, (_, i) => ({ kind: 'tool', name: `t${i}` }));

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-facts-window-'));
    store = await Store.open({ kind: 'embedded', dataDir: dir }, { runFacts: { incremental: false } });
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function rowsRead(work: () => Promise<void>): Promise<number> {
    const selected = async (): Promise<number> => {
      const result = await clientOf(store).query({
        query: "SELECT value FROM system.events WHERE event = 'SelectedRows'",
        format: 'JSONEachRow',
      });
      return Number((await result.json<{ value: string }>())[0]?.value ?? 0);
    };
    const before = await selected();
    await work();
    return (await selected()) - before;
  }

  it('skips the days without its runs, and still reads every span of a run spread over days', async () => {
    // an hour ago: 1,000 runs of 3 spans; and one run whose root began two days ago, with a step an hour ago
    const recent = Array.from({ length: 1_000 }, (_, i) =>
      buildRun({ runId: id('new', i), projectId: 'pw', startNs: NOW_NS - HOUR_NS, steps: steps(2) }),
    );
    const long = buildRun({ runId: id('long', 0), projectId: 'pw', startNs: NOW_NS - 48n * HOUR_NS, steps: steps(3) });
    const late = long.find((s) => s.stepName === 't2')!;
    late.startTimeUnixNano = NOW_NS - HOUR_NS;
    late.endTimeUnixNano = NOW_NS - HOUR_NS + 1_000_000n;
    await store.insertSpans(recent.flat());
    await store.insertSpans(long.filter((s) => s !== late));
    await store.insertSpans([late]);
    const runIds = [...recent.map((r) => r[0]!.runId), id('long', 0)];
    const alone = await rowsRead(() => store.runFacts.flush('pw'));

    // three days ago: 6,000 runs of 7 spans; then the same runs finalised again
    const OLD_ROWS = 6_000 * 7;
    await store.insertSpans(
      Array.from({ length: 6_000 }, (_, i) =>
        buildRun({ runId: id('old', i), projectId: 'pw', startNs: NOW_NS - 72n * HOUR_NS, steps: steps(6) }),
      ).flat(),
    );
    await store.runFacts.flush('pw');
    for (const runId of runIds) store.runFacts.mark('pw', runId);
    const beside = await rowsRead(() => store.runFacts.flush('pw'));
    // each statement would read most old granules (a thousand random ids pass their bloom filters);
    // only the old runs' per-run aggregates are read, when the time range is asked
    expect(alone).toBeGreaterThan(3_000);
    expect(beside - alone).toBeLessThan(OLD_ROWS);

    const facts = await clientOf(store).query({
      query: `SELECT span_count, toString(toUnixTimestamp64Nano(run_start)) AS start_ns, steps FROM run_facts FINAL
              WHERE project_id = 'pw' AND run_id = {runId:String}`,
      query_params: { runId: id('long', 0) },
      format: 'JSONEachRow',
    });
    expect(await facts.json()).toEqual([{ span_count: 4, start_ns: String(NOW_NS - 48n * HOUR_NS), steps: 3 }]);
    const all = await clientOf(store).query({
      query: `SELECT count() AS n FROM run_facts FINAL WHERE project_id = 'pw'`,
      format: 'JSONEachRow',
    });
    expect(await all.json()).toEqual([{ n: 7001 }]);
  });
});

describe('RunFacts chunks (finalising reads the same rows whatever order the runs arrived in)', () => {
  let dir: string;
  let store: Store;
  const RUNS = 4_000;
  const ids = Array.from({ length: RUNS }, (_, i) => `r${String(i).padStart(5, '0')}`);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-facts-chunks-'));
    store = await Store.open({ kind: 'embedded', dataDir: dir }, { runFacts: { chunkRuns: 500 } });
    // 4,000 runs of 8 spans in one part: 4 granules of 8,192 rows, 8 chunks of 500 runs
    const steps = Array.from({ length: 7 }, (_, i) => ({ kind: 'tool', name: `t${i}` }));
    await store.insertSpans(ids.flatMap((runId) => buildRun({ runId, projectId: 'pk', startNs: T0, steps })));
    await store.runFacts.flush();
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function rowsRead(order: readonly string[]): Promise<number> {
    const selected = async (): Promise<number> => {
      const result = await clientOf(store).query({
        query: "SELECT value FROM system.events WHERE event = 'SelectedRows'",
        format: 'JSONEachRow',
      });
      return Number((await result.json<{ value: string }>())[0]?.value ?? 0);
    };
    for (const runId of order) store.runFacts.mark('pk', runId);
    const before = await selected();
    await store.runFacts.flush('pk');
    return (await selected()) - before;
  }

  it('chunks neighbouring run ids, so each chunk reads its own granules, not every granule', async () => {
    // arrival order with no relation to the ids (as with random ids): every chunk of 500 would touch all 4 granules
    const scattered = ids.map((_, i) => ids[(i * 1_009) % RUNS]!);
    expect(new Set(scattered).size).toBe(RUNS);
    const inOrder = await rowsRead(ids);
    const outOfOrder = await rowsRead(scattered);
    expect(inOrder).toBeGreaterThan(0);
    // the same chunks, so the same granules (± the odd row of system tables read between)
    expect(Math.abs(outOfOrder - inOrder)).toBeLessThan(inOrder / 100);
    expect((await factRows(store, 'pk')).length).toBe(RUNS);
  });
});

describe('RunFacts in the background (finalises settled runs: quiet, or pending too long)', () => {
  let dir: string;
  let store: Store;
  let now = 0;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-facts-background-'));
    store = await Store.open(
      { kind: 'embedded', dataDir: dir },
      { runFacts: { quietMs: 1_000, maxPendingMs: 5_000, clock: () => now } },
    );
  });
  afterAll(async () => {
    await store.runFacts.stop();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Lets the 10 ms timer tick a few times, then waits for a flush it started (flushes run in turn; project `none` has nothing pending). */
  async function ticks(): Promise<void> {
    await new Promise((r) => setTimeout(r, 100));
    await store.runFacts.flush('none');
  }

  const part = (runId: string, name: string): ReturnType<typeof buildRun> =>
    buildRun({ runId, projectId: 'pg', startNs: T0, withRoot: false, steps: [{ kind: 'tool', name }] });

  it('leaves a run that is still receiving spans pending, finalises a quiet one, and a busy one once it waited maxPendingMs', async () => {
    store.runFacts.start(10);
    now = 0;
    await store.insertSpans(part('quiet', 'a'));
    await store.insertSpans(part('busy', 'a'));
    now = 500;
    await store.insertSpans(part('busy', 'b'));
    await ticks();
    expect(store.runFacts.pendingRuns()).toBe(2);
    expect(await factRows(store, 'pg')).toEqual([]);

    now = 1_200; // quiet: 1,200 ms without spans; busy: 700 ms
    await ticks();
    expect(store.runFacts.pendingRuns()).toBe(1);
    expect((await factRows(store, 'pg')).map((r) => r.run_id)).toEqual(['quiet']);

    // spans keep coming for `busy`: never quiet for 1 s, but pending since 0
    for (now = 1_400; now < 5_000; now += 700) {
      await store.insertSpans(part('busy', `c${now}`));
      await ticks();
      expect(store.runFacts.pendingRuns()).toBe(1);
    }
    now = 5_000;
    await ticks();
    expect(store.runFacts.pendingRuns()).toBe(0);
    expect(await factRows(store, 'pg')).toEqual([
      { run_id: 'busy', outcome: 'incomplete', steps: 8 },
      { run_id: 'quiet', outcome: 'incomplete', steps: 1 },
    ]);
  });

  it('still finalises every pending run for a query, however recent', async () => {
    now = 10_000;
    await store.insertSpans(part('fresh', 'a'));
    await ticks();
    expect(store.runFacts.pendingRuns()).toBe(1);
    await store.runFacts.beforeRead('pg');
    expect(store.runFacts.pendingRuns()).toBe(0);
    expect((await factRows(store, 'pg')).map((r) => r.run_id)).toEqual(['busy', 'fresh', 'quiet']);
  });
});

/** Stores a run of `steps` steps as one Arrow batch, with the facts an ingest worker computes for it. */
async function storeWithFacts(store: Store, projectId: string, runId: string, steps: number): Promise<void> {
  const spans = buildRun({
    runId,
    projectId,
    startNs: T0,
    steps: Array.from({ length: steps }, (_, i) => ({ kind: 'tool', name: `t${i}` })),
  });
  const message = encodeSpanRecordBatch(spans);
  const facts = computeRequestFacts(projectId, message);
  expect(facts.runs.map((r) => r.runId)).toEqual([runId]);
  await store.insertSpanBatches([message], spans, { facts: [{ projectId, ...facts }] });
}

/** Waits (at most 10 s) until the facts of `runs` runs were written from the workers' facts. */
async function workerFactsWritten(store: Store, runs: number): Promise<void> {
  const by = Date.now() + 10_000;
  while (store.runFacts.finalised.incremental < runs && Date.now() < by) await new Promise((r) => setTimeout(r, 20));
}

/** A store of the describe block's own, holding the workers' facts as asked. */
function storeHolding(holdFacts: { spans: number; ms: number }): () => Store {
  let dir: string;
  let store: Store;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-facts-held-'));
    store = await Store.open({ kind: 'embedded', dataDir: dir }, { runFacts: { holdFacts } });
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return () => store;
}

describe('RunFacts holding the ingest workers’ facts (written together: each write costs the engine about the same whatever its size)', () => {
  // a run of 4 steps has 5 spans: two of them fill the hold; the time limit is past the test's
  const storeOf = storeHolding({ spans: 10, ms: 600_000 });

  it('holds them until they cover the spans asked for, then writes them all', async () => {
    const store = storeOf();
    await storeWithFacts(store, 'ph', 'h1', 4);
    await new Promise((r) => setTimeout(r, 200));
    expect(await factRows(store, 'ph')).toEqual([]);
    expect(store.runFacts.pendingRuns()).toBe(0);
    await storeWithFacts(store, 'ph', 'h2', 4);
    await workerFactsWritten(store, 2);
    expect(await factRows(store, 'ph')).toEqual([
      { run_id: 'h1', outcome: 'success', steps: 4 },
      { run_id: 'h2', outcome: 'success', steps: 4 },
    ]);
    expect(store.runFacts.finalised).toEqual({ incremental: 2, sql: 0 });
  });

  it('writes what it holds before a flush finalises, so a query reads every run stored', async () => {
    const store = storeOf();
    await storeWithFacts(store, 'pf', 'f1', 2);
    expect(await factRows(store, 'pf')).toEqual([]);
    await store.runFacts.beforeRead('pf');
    expect(await factRows(store, 'pf')).toEqual([{ run_id: 'f1', outcome: 'success', steps: 2 }]);
    expect(store.runFacts.finalised).toEqual({ incremental: 3, sql: 0 });
  });
});

describe('RunFacts holding the ingest workers’ facts for a time at most', () => {
  const storeOf = storeHolding({ spans: 1_000_000, ms: 2_000 });

  it('writes what it holds once it has held it that long', async () => {
    const store = storeOf();
    const stored = Date.now();
    await storeWithFacts(store, 'pt', 't1', 1);
    expect(await factRows(store, 'pt')).toEqual([]);
    await workerFactsWritten(store, 1);
    expect(Date.now() - stored).toBeGreaterThanOrEqual(2_000);
    expect(await factRows(store, 'pt')).toEqual([{ run_id: 't1', outcome: 'success', steps: 1 }]);
    expect(store.runFacts.finalised).toEqual({ incremental: 1, sql: 0 });
  });
});
