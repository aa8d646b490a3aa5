import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstDifference, generateDataset, shuffleForDelivery, smallDataset } from '@telltale/datasets';
import { Store, type SpanRecord } from '@telltale/store';
import { computeRequestFacts, encodeSpanRecordBatch } from '@telltale/store/encode';
import { StoreInspector } from '@telltale/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * The run facts computed in TypeScript against the SQL finaliser reading
 * the spans back: the same spans go to three projects, one through
 * `insertSpans` (its runs' spans are kept, so their facts are computed from
 * them), one as Arrow batches with the facts an ingest worker computes for
 * the runs a batch holds whole (computeRequestFacts: written when storage
 * holds exactly their spans, the others left to SQL), one as Arrow batches
 * alone (the SQL finaliser), and every row of run_facts, run_step_facts and
 * run_steps must agree — spans in order, shuffled with late spans after a
 * finalisation, duplicated, and across a crash that loses the kept spans.
 */
const END = 1_900_000_000_000_000_000n;

const TABLES = [
  { table: 'run_facts', order: 'run_id' },
  { table: 'run_step_facts', order: 'run_id, step_name' },
  { table: 'run_steps', order: 'run_id' },
] as const;

describe('incremental run facts against the SQL finaliser', { timeout: 180_000 }, () => {
  const { spans } = generateDataset(smallDataset({ runs: 400, endNs: END }));
  const projectId = [...new Set(spans.map((s) => s.projectId))].sort()[0]!;
  const own = spans.filter((s) => s.projectId === projectId);
  let dir: string;
  let store: Store;

  const copy = (suffix: string, list: readonly SpanRecord[]): SpanRecord[] =>
    list.map((s) => ({ ...s, projectId: projectId + suffix }));

  /** Delivers the same batches to `<suffix>-ts` (spans kept), `<suffix>-req` (worker facts) and `<suffix>-sql`. */
  async function deliver(suffix: string, batches: readonly (readonly SpanRecord[])[]): Promise<void> {
    for (const batch of batches) {
      await store.insertSpans(copy(`${suffix}-ts`, batch));
      const req = copy(`${suffix}-req`, batch);
      const message = encodeSpanRecordBatch(req);
      const facts = computeRequestFacts(`${projectId}${suffix}-req`, message);
      await store.insertSpanBatches([message], req, { facts: [{ projectId: `${projectId}${suffix}-req`, ...facts }] });
      const sql = copy(`${suffix}-sql`, batch);
      await store.insertSpanBatches([encodeSpanRecordBatch(sql)], sql);
    }
  }

  /** Every fact row of a project but its project, version and ingest time; self times in a fixed order (the SQL's are in none). */
  async function factRows(project: string): Promise<Record<string, unknown[]>> {
    const inspector = new StoreInspector(store);
    const out: Record<string, unknown[]> = {};
    for (const { table, order } of TABLES) {
      const rows = await inspector.baselineRows<Record<string, unknown>>(
        `SELECT * EXCEPT (project_id, version${table === 'run_facts' ? ', ingested_max' : ''})
         FROM ${table} FINAL WHERE project_id = {p:String} ORDER BY ${order}
         SETTINGS output_format_json_quote_64bit_integers = 1`,
        { p: project },
      );
      out[table] = rows.map((r) =>
        Array.isArray(r.self_times)
          ? { ...r, self_times: (r.self_times as unknown[]).map((x) => JSON.stringify(x)).sort() }
          : r,
      );
    }
    return out;
  }

  async function expectSameFacts(suffix: string, minRuns: number): Promise<void> {
    await store.runFacts.flush();
    const sql = await factRows(`${projectId}${suffix}-sql`);
    expect(sql.run_facts!.length, 'runs finalised').toBeGreaterThanOrEqual(minRuns);
    for (const path of ['-ts', '-req'])
      expect(firstDifference(await factRows(`${projectId}${suffix}${path}`), sql, suffix + path)).toBeUndefined();
    // the ingest time each path records is not before its spans' (else a restart would take the run as stale)
    for (const path of ['-ts', '-req', '-sql'])
      expect(
        await factsOlderThanSpans(`${projectId}${suffix}${path}`),
        `${suffix}${path}: facts older than their spans`,
      ).toBe(0);
  }

  /** Runs whose run_facts row records an ingest time before the latest of their stored spans. */
  async function factsOlderThanSpans(project: string): Promise<number> {
    const [row] = await new StoreInspector(store).baselineRows<{ n: number | string }>(
      `SELECT count() AS n
       FROM (SELECT run_id, max(ingested_at) AS spans_max FROM spans WHERE project_id = {p:String} GROUP BY run_id) AS s
       INNER JOIN (SELECT run_id, ingested_max FROM run_facts FINAL WHERE project_id = {p:String}) AS f ON f.run_id = s.run_id
       WHERE f.ingested_max < s.spans_max`,
      { p: project },
    );
    return Number(row?.n);
  }

  /** Runs one batch holds whole, root included (what computeRequestFacts takes). */
  const wholeRuns = (batches: readonly (readonly SpanRecord[])[]): number => {
    const batchesOfRun = new Map<string, Set<number>>();
    const rooted = new Set<string>();
    batches.forEach((b, i) =>
      b.forEach((s) => {
        let set = batchesOfRun.get(s.runId);
        if (set === undefined) batchesOfRun.set(s.runId, (set = new Set()));
        set.add(i);
        if (s.isRunRoot || s.stepKind === 'run') rooted.add(s.runId);
      }),
    );
    let n = 0;
    for (const [runId, set] of batchesOfRun) if (set.size === 1 && rooted.has(runId)) n++;
    return n;
  };

  const batchesOf = (list: readonly SpanRecord[], size: number): SpanRecord[][] => {
    const out: SpanRecord[][] = [];
    for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
    return out;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-facts-incremental-'));
    store = await Store.open({ kind: 'embedded', dataDir: dir });
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('computes every fact row as the SQL finaliser does, spans in order', async () => {
    const before = { ...store.runFacts.finalised };
    await deliver('-order', batchesOf(own, 500));
    await expectSameFacts('-order', 200);
    const runs = new Set(own.map((s) => s.runId)).size;
    // every run from the kept spans, and the runs whole in a batch from the worker facts
    const whole = wholeRuns(batchesOf(own, 500));
    expect(whole, 'runs a batch holds whole').toBeGreaterThan(runs / 2);
    expect(store.runFacts.finalised.incremental - before.incremental).toBe(runs + whole);
    // the reference, and the runs the worker facts left (split over batches)
    expect(store.runFacts.finalised.sql - before.sql).toBe(2 * runs - whole);
  });

  it('refinalises a run the same way when its spans arrive shuffled, some after it was finalised', async () => {
    const batches = shuffleForDelivery(own, 11, { batchSize: [100, 900] });
    const half = Math.ceil(batches.length / 2);
    await deliver('-late', batches.slice(0, half));
    await expectSameFacts('-late', 100);
    const before = store.runFacts.finalised.incremental;
    await deliver('-late', batches.slice(half));
    await expectSameFacts('-late', 200);
    expect(store.runFacts.finalised.incremental, 'late spans refinalised from the kept spans').toBeGreaterThan(before);
  });

  it('counts a span stored twice once, as storage keeps it once', async () => {
    const batches = shuffleForDelivery(own, 23, { batchSize: [200, 700] });
    const before = store.runFacts.finalised.incremental;
    await deliver('-dup', [...batches, ...batches.filter((_, i) => i % 3 === 0)]);
    await new StoreInspector(store).mergeParts(['spans']);
    await expectSameFacts('-dup', 200);
    expect(store.runFacts.finalised.incremental, 'duplicates did not force the SQL path').toBeGreaterThan(before);
  });

  it('rebuilds from storage when a crash lost the kept spans mid-run', async () => {
    const batches = shuffleForDelivery(own, 37, { batchSize: [100, 600] });
    const third = Math.ceil(batches.length / 3);
    await deliver('-crash', batches.slice(0, third));
    await store.runFacts.flush();
    await deliver('-crash', batches.slice(third, 2 * third));
    // a crash: nothing pending is finalised, the kept spans are gone
    await store.close({ finaliseWithinMs: 0 });
    store = await Store.open({ kind: 'embedded', dataDir: dir });
    const before = { ...store.runFacts.finalised };
    expect(before.sql, 'the catch-up finalised the runs left pending').toBeGreaterThan(0);
    await deliver('-crash', batches.slice(2 * third));
    await expectSameFacts('-crash', 200);
    // runs with spans from before the restart are not computed from the few kept since
    expect(store.runFacts.finalised.sql - before.sql).toBeGreaterThan(0);
  });
});
