import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpanContentRecord } from '../content/SpanContentRecord.js';
import { clientOf } from '../internal/storeRunners.js';
import { Store } from '../Store.js';
import { makeSpan } from '../testing/makeSpan.js';
import { deleteRun } from './deleteRun.js';

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

  /** Rows of the run in each table (by its trace for content, which names no run). */
  async function rowsOf(runId: string, traceId: string): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const table of TABLES) {
      const where = table === 'span_content' ? 'trace_id = {traceId:String}' : 'run_id = {runId:String}';
      const result = await clientOf(store).query({
        query: `SELECT count() AS n FROM ${table} WHERE project_id = 'p1' AND ${where}`,
        query_params: { runId, traceId },
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
    await store.insertSpans([...gone.spans, ...kept.spans]);
    await store.content.insert([...gone.content, ...kept.content]);
    await store.runFacts.flush('p1');
    const before = { runId: 'run-gone', traceId: 'a'.repeat(32) };
    expect(await rowsOf(before.runId, before.traceId)).toEqual({
      spans: 3,
      span_content: 2,
      run_facts: 1,
      run_step_facts: 2,
      run_steps: 1,
      trace_runs: 1,
    });
    const keptRows = await rowsOf('run-kept', 'b'.repeat(32));

    expect(await store.runs.delete('p1', 'run-gone')).toEqual({ runId: 'run-gone', spans: 3, contentSpans: 2 });
    expect(await rowsOf(before.runId, before.traceId)).toEqual(Object.fromEntries(TABLES.map((t) => [t, 0])));
    expect(await rowsOf('run-kept', 'b'.repeat(32))).toEqual(keptRows);
    // the run was pending once: finalising again finds no spans and writes no facts
    store.runFacts.mark('p1', 'run-gone');
    await store.runFacts.flush('p1');
    expect((await rowsOf(before.runId, before.traceId)).run_facts).toBe(0);
    expect((await store.runs.listRuns({ projectId: 'p1' }, { limit: 10, offset: 0 })).runs.map((r) => r.runId)).toEqual(
      ['run-kept'],
    );
  });

  it('answers undefined for a run the project does not have, and a run of another project stays', async () => {
    const other = run('run-other', 'c');
    await store.insertSpans(other.spans.map((s) => ({ ...s, projectId: 'p2' })));
    expect(await store.runs.delete('p1', 'run-other')).toBeUndefined();
    expect(await store.runs.delete('p1', 'no-such-run')).toBeUndefined();
    expect((await store.runs.delete('p2', 'run-other'))?.spans).toBe(3);
  });

  it('refuses on a cluster, saying so, before touching anything', async () => {
    await expect(deleteRun(clientOf(store), 'p1', 'run-kept', 'prod')).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: expect.stringContaining('cluster (prod)'),
    });
    expect((await rowsOf('run-kept', 'b'.repeat(32))).spans).toBe(3);
  });
});
