import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../Store.js';
import { clientOf } from '../../internal/storeRunners.js';
import { encodeSpanRecordBatch } from '../../spans/arrow/encodeSpanRecordBatch.js';
import type { SpanRecord } from '../../spans/SpanRecord.js';
import { loopRun, type LoopRunStep } from '../../testing/loopRun.js';
import { makeSpan } from '../../testing/makeSpan.js';
import { computeRequestFacts } from './requestFacts.js';

const T0 = BigInt(Date.now() - 3_600_000) * 1_000_000n;
const MS = 1_000_000n;

const tool = (name: string, args: string, ok = true, extra: Partial<LoopRunStep> = {}): LoopRunStep => ({
  kind: 'tool',
  name,
  args,
  ok,
  ...extra,
});

/** Runs that reach every branch of the facts: loops of each variant (several per run), causes, retries, usage, sessions, nesting. */
function edgeRuns(projectId: string): SpanRecord[] {
  const runs: SpanRecord[][] = [
    // two repeated (tool, args) groups and two repeated states: detections in the SQL's hash order
    loopRun({
      projectId,
      runId: 'loops-a',
      startNs: T0,
      steps: [
        tool('search', 'q1'),
        tool('fetch', 'u1'),
        tool('search', 'q1'),
        tool('fetch', 'u1'),
        tool('search', 'q1'),
        tool('fetch', 'u1'),
        tool('zeta', 'z', true, { costUsd: 0.25 }),
        tool('zeta', 'z'),
        tool('zeta', 'z'),
        { kind: 'plan', name: 'plan', state: 's1' },
        { kind: 'validate', name: 'check', state: 's1' },
        { kind: 'plan', name: 'plan', state: 's1' },
        { kind: 'plan', name: 'plan', state: 's2' },
        { kind: 'plan', name: 'plan', state: 's2' },
        { kind: 'plan', name: 'plan', state: 's2' },
      ],
    }),
    // failed validations with the same output, then a ping-pong; the run fails
    loopRun({
      projectId,
      runId: 'loops-b',
      startNs: T0 + 1_000n * MS,
      ok: false,
      steps: [
        { kind: 'validate', name: 'v', output: 'o1', ok: false },
        { kind: 'validate', name: 'v', output: 'o1', ok: false },
        { kind: 'validate', name: 'v', output: 'o1', ok: false },
        { kind: 'validate', name: 'v', output: 'o2', ok: false },
        tool('a', ''),
        tool('b', ''),
        tool('a', ''),
        tool('b', ''),
        tool('a', ''),
        tool('b', ''),
        tool('a', ''),
        tool('c', ''),
      ],
    }),
    // causes: a side effect before the failure; a tool never succeeding; a timeout on the root
    loopRun({
      projectId,
      runId: 'cause-partial',
      startNs: T0 + 2_000n * MS,
      ok: false,
      steps: [tool('pay', 'x', true, { sideEffect: true }), tool('ship', 'y', false)],
    }),
    loopRun({
      projectId,
      runId: 'cause-tool',
      startNs: T0 + 3_000n * MS,
      ok: false,
      steps: [tool('ship', 'y', false, { attempt: 1 }), tool('ship', 'y', false, { attempt: 2 })],
    }),
    loopRun({
      projectId,
      runId: 'cause-timeout',
      startNs: T0 + 4_000n * MS,
      ok: false,
      rootErrorType: 'DeadlineExceeded',
      steps: [{ kind: 'llm', name: 'think', attempt: 1 }],
    }),
    loopRun({
      projectId,
      runId: 'cause-validation',
      startNs: T0 + 5_000n * MS,
      ok: false,
      steps: [
        { kind: 'validate', name: 'v', ok: true },
        { kind: 'validate', name: 'v', ok: false, errorType: 'request timed out' },
      ],
    }),
    // a recovery whose first attempt never arrived (more recoveries than groups)
    loopRun({
      projectId,
      runId: 'orphan-retry',
      startNs: T0 + 7_000n * MS,
      steps: [tool('t', 'a', true, { attempt: 2 }), tool('t', 'b', true, { attempt: 3 })],
    }),
    // retries without attempt numbers: failed, failed, ok; then ok, ok (two groups); incomplete run
    loopRun({
      projectId,
      runId: 'unnumbered',
      startNs: T0 + 6_000n * MS,
      incomplete: true,
      steps: [
        tool('t', 'a', false, { attempt: 0, durationMs: 3 }),
        tool('t', 'a', false, { attempt: 0, durationMs: 4 }),
        tool('t', 'a', true, { attempt: 0, durationMs: 5, costUsd: 0.5 }),
        tool('t', 'a', true, { attempt: 0 }),
        tool('u', 'a', true, { attempt: 0 }),
        { kind: 'llm', name: 'think', attempt: 0, ok: false, startMs: 200 },
        { kind: 'llm', name: 'think', attempt: 0, ok: true, startMs: 200, durationMs: 2 },
      ],
    }),
  ];
  const spans = runs.flat();
  // usage per model (cached above input, explicit cost, a handoff and a run span that count nothing), a session, nesting
  const usage = spans.filter((s) => s.runId === 'unnumbered' || s.runId === 'loops-a');
  usage.forEach((s, i) => {
    s.model = i % 3 === 0 ? 'gpt-4o' : i % 3 === 1 ? 'claude-3' : '';
    s.inputTokens = 100 + i;
    s.cachedInputTokens = i % 4 === 0 ? 500 : 20;
    s.outputTokens = i % 5 === 0 ? 0 : 30;
  });
  const root = spans.find((s) => s.runId === 'loops-a' && s.stepKind === 'run')!;
  root.attributes = [{ key: 'session.id', value: 'sess-1' }];
  // a run whose earliest span names no session: its session is that of the earliest span naming one
  const unsessioned = spans
    .filter((s) => s.runId === 'loops-b')
    .sort((a, b) => (a.startTimeUnixNano < b.startTimeUnixNano ? -1 : 1));
  const named = unsessioned.filter((s) => s.startTimeUnixNano > unsessioned[0]!.startTimeUnixNano);
  named.at(-1)!.attributes = [{ key: 'gen_ai.conversation.id', value: 'sess-late' }];
  named[0]!.attributes = [{ key: 'session.id', value: 'sess-early' }];
  const child = spans.find((s) => s.runId === 'loops-a' && s.stepName === 'search')!;
  spans.push(
    makeSpan({
      projectId,
      runId: 'loops-a',
      traceId: child.traceId,
      spanId: 'ffff00000000aaaa',
      parentSpanId: child.spanId,
      name: 'http GET',
      startTimeUnixNano: child.startTimeUnixNano - MS,
      endTimeUnixNano: child.startTimeUnixNano + MS / 2n,
    }),
    makeSpan({
      projectId,
      runId: 'loops-a',
      traceId: child.traceId,
      spanId: 'ffff00000000bbbb',
      parentSpanId: root.spanId,
      name: 'handoff',
      stepKind: 'handoff',
      stepName: 'to-other',
      inputTokens: 10,
      outputTokens: 5,
      startTimeUnixNano: root.startTimeUnixNano,
    }),
  );
  return spans;
}

async function factRows(store: Store, projectId: string): Promise<unknown> {
  const out: Record<string, unknown> = {};
  for (const [table, order] of [
    ['run_facts', 'run_id'],
    ['run_step_facts', 'run_id, step_name'],
    ['run_steps', 'run_id'],
  ] as const) {
    const result = await clientOf(store).query({
      query: `SELECT * EXCEPT (project_id, version${table === 'run_facts' ? ', ingested_max' : ''})
        FROM ${table} FINAL WHERE project_id = {p:String} ORDER BY ${order}
        SETTINGS output_format_json_quote_64bit_integers = 1`,
      query_params: { p: projectId },
      format: 'JSONEachRow',
    });
    out[table] = (await result.json<Record<string, unknown>>()).map((r) =>
      Array.isArray(r.self_times) ? { ...r, self_times: r.self_times.map((x) => JSON.stringify(x)).sort() } : r,
    );
  }
  return out;
}

describe('computeRunFacts against the SQL finaliser (hand-built edge cases)', () => {
  let dir: string;
  let store: Store;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-facts-edge-'));
    store = await Store.open({ kind: 'embedded', dataDir: dir });
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes the same rows for every edge case', async () => {
    const spans = edgeRuns('ts');
    await store.insertSpans(spans);
    const sql = spans.map((s) => ({ ...s, projectId: 'sql' }));
    await store.insertSpanBatches([encodeSpanRecordBatch(sql)], sql);
    // and as an ingest worker computes them, from the request's Arrow message
    const req = spans.map((s) => ({ ...s, projectId: 'req' }));
    const message = encodeSpanRecordBatch(req);
    await store.insertSpanBatches([message], req, {
      facts: [{ projectId: 'req', ...computeRequestFacts('req', message) }],
    });
    await store.runFacts.flush();
    // the request path takes the runs that hold their root: the incomplete one is the SQL finaliser's
    expect(store.runFacts.finalised).toEqual({ incremental: 15, sql: 9 });
    const ts = await factRows(store, 'ts');
    expect(ts).toEqual(await factRows(store, 'sql'));
    expect(await factRows(store, 'req')).toEqual(ts);

    // the cases reach what they are meant to
    const runs = (
      ts as { run_facts: Array<{ run_id: string; loop_kinds: string[]; cause_base: string; session_id: string }> }
    ).run_facts;
    const byId = new Map(runs.map((r) => [r.run_id, r]));
    expect(byId.get('loops-a')?.loop_kinds.length).toBeGreaterThan(0);
    expect(byId.get('loops-b')?.loop_kinds.length).toBeGreaterThan(1);
    expect(byId.get('loops-a')?.session_id).toBe('sess-1');
    expect(byId.get('loops-b')?.session_id).toBe('sess-early');
    expect(
      ['cause-partial', 'cause-tool', 'cause-timeout', 'cause-validation'].map((id) => byId.get(id)?.cause_base),
    ).toEqual(['partial_execution', 'tool_failure', 'timeout', 'validation_exhausted']);
  });
});
