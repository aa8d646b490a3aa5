import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpanContentRecord } from '../content/SpanContentRecord.js';
import { clientOf } from '../internal/storeRunners.js';
import { Store } from '../Store.js';
import { makeSpan } from '../testing/makeSpan.js';
import { deleteRun } from './deleteRun.js';
import { tableStatements } from '../cluster/clusterMigrations.js';
import { MIGRATIONS } from '../migrations/index.js';

const NOW_NS = BigInt(Date.now()) * 1_000_000n;
const TABLES = ['spans', 'span_content', 'run_facts', 'run_step_facts', 'run_steps', 'trace_runs'] as const;

/** A run of a root, a tool step and an llm step, in trace `t`, each step with content. */
function run(runId: string, t: string) {
  const traceId = t.repeat(32);
  const id = (n: number): string => `${t}${n}`.padStart(16, '0');
  const at = (ms: number): bigint => NOW_NS + BigInt(ms) * 1_000_000n;
  const spans = [
    makeSpan({
      traceId,
      spanId: id(1),
      runId,
      isRunRoot: true,
      stepKind: 'run',
      name: 'agent',
      startTimeUnixNano: at(0),
      endTimeUnixNano: at(900),
    }),
    makeSpan({
      traceId,
      spanId: id(2),
      parentSpanId: id(1),
      runId,
      stepKind: 'tool',
      stepName: 'search',
      startTimeUnixNano: at(10),
      endTimeUnixNano: at(200),
    }),
    makeSpan({
      traceId,
      spanId: id(3),
      parentSpanId: id(1),
      runId,
      stepKind: 'llm',
      stepName: 'answer',
      startTimeUnixNano: at(210),
      endTimeUnixNano: at(800),
    }),
  ];
  const content = spans.slice(1).map((s): SpanContentRecord => ({
    projectId: 'p1',
    traceId,
    spanId: s.spanId,
    runId,
    startTimeUnixNano: s.startTimeUnixNano,
    input: { toolArguments: `{"q":"${runId}"}` },
    output: { text: 'a private answer' },
    truncated: false,
    originalBytes: 30,
    capture: 'full',
    redactions: 0,
  }));
  return { spans, content };
}

describe('deleting a run', () => {
  let dir: string;
  let store: Store;

  /** Rows of the run in each table (content by its spans' keys, since content names no run). */
  async function rowsOf(runId: string, spans: ReadonlyArray<{ traceId: string; spanId: string }>) {
    const out: Record<string, number> = {};
    const keys = spans.map((k) => `${k.traceId}:${k.spanId}`);
    for (const table of TABLES) {
      const where =
        table === 'span_content' ? "concat(trace_id, ':', span_id) IN {keys:Array(String)}" : 'run_id = {runId:String}';
      const result = await clientOf(store).query({
        query: `SELECT count() AS n FROM ${table} WHERE project_id = 'p1' AND ${where}`,
        query_params: { runId, keys },
        format: 'JSONEachRow',
      });
      out[table] = Number((await result.json<{ n: string }>())[0]?.n);
    }
    return out;
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-delete-run-'));
    store = await Store.open({ kind: 'embedded', dataDir: dir });
  }, 120_000);
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('removes its spans, content, facts and trace links, and nothing of another run', async () => {
    const gone = run('run-gone', 'a');
    const kept = run('run-kept', 'b');
    // the run crosses into a second trace (its llm step, called over a service boundary) ...
    const llm = gone.spans[2]!;
    const crossed = { ...llm, traceId: 'f'.repeat(32) };
    gone.spans[2] = crossed;
    gone.content[1] = { ...gone.content[1]!, traceId: crossed.traceId };
    // ... and another run, in the first trace, has a span whose id is that step's (ids are unique per trace only)
    const twin = run('run-twin', 'e');
    const twinSpan = { ...twin.spans[1]!, traceId: 'a'.repeat(32), spanId: llm.spanId, parentSpanId: '' };
    await store.insertSpans([...gone.spans, ...kept.spans, twinSpan]);
    const twinContent = { ...twin.content[0]!, traceId: twinSpan.traceId, spanId: twinSpan.spanId };
    await store.content.insert([...gone.content, ...kept.content, twinContent]);
    await store.runFacts.flush('p1');
    expect(await rowsOf('run-gone', gone.spans)).toEqual({
      spans: 3,
      span_content: 2,
      run_facts: 1,
      run_step_facts: 2,
      run_steps: 1,
      trace_runs: 2,
    });
    const keptRows = await rowsOf('run-kept', kept.spans);
    const twinContentRows = async (): Promise<number> => {
      const result = await clientOf(store).query({
        query: `SELECT count() AS n FROM span_content WHERE trace_id = {t:String} AND span_id = {s:String}`,
        query_params: { t: twinSpan.traceId, s: twinSpan.spanId },
        format: 'JSONEachRow',
      });
      return Number((await result.json<{ n: string }>())[0]?.n);
    };
    expect(await twinContentRows()).toBe(1);

    expect(await store.runs.delete('p1', 'run-gone')).toEqual({ runId: 'run-gone', spans: 3, contentSpans: 2 });
    expect(await rowsOf('run-gone', gone.spans)).toEqual(Object.fromEntries(TABLES.map((t) => [t, 0])));
    expect(await rowsOf('run-kept', kept.spans)).toEqual(keptRows);
    expect(await twinContentRows()).toBe(1);
    // the run was pending once: finalising again finds no spans and writes no facts
    store.runFacts.mark('p1', 'run-gone');
    await store.runFacts.flush('p1');
    expect((await rowsOf('run-gone', gone.spans)).run_facts).toBe(0);
    const listed = await store.runs.listRuns({ projectId: 'p1' }, { limit: 10, offset: 0 });
    expect(listed.runs.map((r) => r.runId).sort()).toEqual(['run-kept', 'run-twin']);
  });

  it('answers undefined for a run the project does not have, and a run of another project stays', async () => {
    const other = run('run-other', 'c');
    await store.insertSpans(other.spans.map((s) => ({ ...s, projectId: 'p2' })));
    expect(await store.runs.delete('p1', 'run-other')).toBeUndefined();
    expect(await store.runs.delete('p1', 'no-such-run')).toBeUndefined();
    expect((await store.runs.delete('p2', 'run-other'))?.spans).toBe(3);
  });

  it('on a cluster, sends each delete to the tables the migrations placed there', async () => {
    // the deletes run as written on this one server; what a cluster would receive is recorded beside them
    const onCluster = tableStatements('prod', MIGRATIONS);
    const sent: string[] = [];
    const kept = run('run-kept', 'b');
    const deleted = await deleteRun(clientOf(store), 'p1', 'run-kept', (sql) => {
      sent.push(...onCluster(sql));
      return [sql];
    });
    expect(deleted).toEqual({ runId: 'run-kept', spans: 3, contentSpans: 2 });
    expect(await rowsOf('run-kept', kept.spans)).toEqual(Object.fromEntries(TABLES.map((t) => [t, 0])));
    // every table is sharded (content by trace, the rest by run): each shard's local table
    expect(sent.map((sql) => /^DELETE FROM (\w+) ON CLUSTER prod WHERE /.exec(sql)?.[1])).toEqual([
      'span_content_local',
      'spans_local',
      'run_step_facts_local',
      'run_steps_local',
      'run_facts_local',
      'trace_runs_local',
    ]);
    // and the engine's own parser takes each of them, settings and query parameters included
    for (const sql of sent) {
      const parsed = await clientOf(store).query({
        query: 'SELECT formatQuery({sql:String}) AS sql',
        query_params: { sql },
        format: 'JSONEachRow',
      });
      expect((await parsed.json<{ sql: string }>())[0]?.sql).toContain('ON CLUSTER prod');
    }
  });
});
