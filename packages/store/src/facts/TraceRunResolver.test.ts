import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientOf } from '../internal/storeRunners.js';
import { Store } from '../Store.js';
import { RunFacts } from './RunFacts.js';
import type { SpanRecord } from '../spans/SpanRecord.js';
import { makeSpan } from '../testing/makeSpan.js';
import { tableStatements } from '../cluster/clusterMigrations.js';
import { MIGRATIONS } from '../migrations/index.js';

const T0 = BigInt(Date.now() - 3_600_000) * 1_000_000n;

interface RunRow {
  run_id: string;
  span_count: number;
  service: string;
}

async function factRows(store: Store, projectId: string): Promise<RunRow[]> {
  const result = await clientOf(store).query({
    query: `SELECT run_id, span_count, service FROM run_facts FINAL WHERE project_id = {projectId:String} ORDER BY run_id`,
    format: 'JSONEachRow',
    query_params: { projectId },
  });
  return (await result.json<RunRow>()).map((r) => ({ ...r, span_count: Number(r.span_count) }));
}

async function spanRuns(store: Store, projectId: string): Promise<Record<string, string>> {
  const result = await clientOf(store).query({
    query: `SELECT span_id, run_id FROM spans WHERE project_id = {projectId:String} ORDER BY span_id`,
    format: 'JSONEachRow',
    query_params: { projectId },
  });
  return Object.fromEntries(
    (await result.json<{ span_id: string; run_id: string }>()).map((r) => [r.span_id, r.run_id]),
  );
}

/**
 * A trace across two services: the agent's run root (0…01) and its HTTP
 * client span (0…02) carry the run id; the tool service's server span
 * (0…03, parented by 0…02) and its child (0…04) carry none, so they are
 * stored under the trace id.
 */
function crossService(projectId: string, traceId: string, runId: string, prefix: string) {
  const id = (n: number): string => `${prefix}${n.toString(16).padStart(16 - prefix.length, '0')}`;
  const at = (n: number): bigint => T0 + BigInt(n) * 1_000_000n;
  const agent: SpanRecord[] = [
    makeSpan({
      projectId,
      traceId,
      runId,
      spanId: id(1),
      isRunRoot: true,
      stepKind: 'run',
      name: 'agent',
      serviceName: 'agent-svc',
      startTimeUnixNano: at(0),
      endTimeUnixNano: at(10),
      statusCode: 1,
    }),
    makeSpan({
      projectId,
      traceId,
      runId,
      spanId: id(2),
      parentSpanId: id(1),
      name: 'GET /tool',
      stepKind: 'tool',
      stepName: 'lookup',
      toolName: 'lookup',
      serviceName: 'agent-svc',
      startTimeUnixNano: at(1),
      endTimeUnixNano: at(8),
      statusCode: 1,
    }),
  ];
  const tool: SpanRecord[] = [
    makeSpan({
      projectId,
      traceId,
      runId: traceId,
      spanId: id(3),
      parentSpanId: id(2),
      name: 'GET /tool',
      spanKind: 2,
      serviceName: 'tool-svc',
      startTimeUnixNano: at(2),
      endTimeUnixNano: at(7),
    }),
    makeSpan({
      projectId,
      traceId,
      runId: traceId,
      spanId: id(4),
      parentSpanId: id(3),
      name: 'db query',
      serviceName: 'tool-svc',
      startTimeUnixNano: at(3),
      endTimeUnixNano: at(6),
    }),
  ];
  return { agent, tool, ids: [id(1), id(2), id(3), id(4)] };
}

describe('TraceRunResolver (spans without a run id join the run of their trace, in storage)', () => {
  let dir: string;
  let store: Store;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-trace-runs-'));
    store = await Store.open({ kind: 'embedded', dataDir: dir }, { runFacts: { orphanQuietMs: 60_000 } });
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('moves the downstream spans into the run when they arrive after the run was finalised', async () => {
    const t = crossService('pa', 'a1'.padEnd(32, '0'), 'run-a', 'a');
    await store.insertSpans(t.agent);
    await store.runFacts.flush('pa');
    expect(await factRows(store, 'pa')).toEqual([{ run_id: 'run-a', span_count: 2, service: 'agent-svc' }]);
    await store.insertSpans(t.tool);
    await store.runFacts.flush('pa');
    expect(await factRows(store, 'pa')).toEqual([{ run_id: 'run-a', span_count: 4, service: 'agent-svc' }]);
    expect(Object.values(await spanRuns(store, 'pa'))).toEqual(['run-a', 'run-a', 'run-a', 'run-a']);
    expect(store.runFacts.pendingRuns()).toBe(0);
  });

  it("sends its deletes through the store's statement form: on a cluster, to the shards' local tables", async () => {
    // the statements run as written on this one server; what a cluster would receive is recorded beside them
    const onCluster = tableStatements('telltale', MIGRATIONS);
    const sent: string[] = [];
    const facts = new RunFacts(clientOf(store), { orphanQuietMs: 60_000 }, undefined, (sql) => {
      sent.push(...onCluster(sql));
      return [sql];
    });
    const t = crossService('pz', 'f1'.padEnd(32, '0'), 'run-z', 'f');
    await store.insertSpans(t.agent);
    facts.mark('pz', 'run-z');
    await facts.flush('pz');
    await store.insertSpans(t.tool);
    facts.mark('pz', 'f1'.padEnd(32, '0'));
    await facts.flush('pz');
    expect(Object.values(await spanRuns(store, 'pz'))).toEqual(['run-z', 'run-z', 'run-z', 'run-z']);
    expect(sent.map((sql) => /^DELETE FROM (\w+) ON CLUSTER telltale WHERE/.exec(sql)?.[1])).toEqual(['spans_local']);
    // the engine's own parser takes it, query parameters and all
    const parsed = await clientOf(store).query({
      query: 'SELECT formatQuery({sql:String}) AS sql',
      query_params: { sql: sent[0] },
      format: 'JSONEachRow',
    });
    expect((await parsed.json<{ sql: string }>())[0]?.sql).toMatch(
      /^DELETE FROM spans_local ON CLUSTER telltale WHERE/,
    );
    await store.runFacts.flush('pz'); // the store saw these runs too: nothing left pending for the tests after
  });

  it('holds a downstream fragment that arrives first (not a run), then moves it when the run arrives', async () => {
    const t = crossService('pb', 'b1'.padEnd(32, '0'), 'run-b', 'b');
    await store.insertSpans(t.tool);
    await store.runFacts.flush('pb');
    expect(await factRows(store, 'pb')).toEqual([]);
    expect(store.runFacts.pendingRuns()).toBe(1); // held, still pending
    await store.insertSpans(t.agent);
    await store.runFacts.flush('pb');
    expect(await factRows(store, 'pb')).toEqual([{ run_id: 'run-b', span_count: 4, service: 'agent-svc' }]);
    expect(store.runFacts.pendingRuns()).toBe(0);
  });

  it('lists a fragment holding its trace root at once, and merges it when the run arrives later', async () => {
    const t = crossService('pc', 'c1'.padEnd(32, '0'), 'run-c', 'c');
    const traceId = 'c1'.padEnd(32, '0');
    // the fragment's trace root is present: a plain trace, listed at once
    const rooted = t.tool.map((s, i) => (i === 0 ? { ...s, parentSpanId: '' } : s));
    await store.insertSpans(rooted);
    await store.runFacts.flush('pc');
    expect(await factRows(store, 'pc')).toEqual([{ run_id: traceId, span_count: 2, service: 'tool-svc' }]);
    await store.insertSpans(t.agent);
    await store.runFacts.flush('pc');
    // its facts are gone, its spans are in the run (the only run of the trace)
    expect(await factRows(store, 'pc')).toEqual([{ run_id: 'run-c', span_count: 4, service: 'agent-svc' }]);
  });

  it('takes a downstream fragment for a run of its own once its trace has been quiet for orphanQuietMs', async () => {
    const t = crossService('pf', 'f1'.padEnd(32, '0'), 'run-f', '9');
    await store.insertSpans(t.tool);
    await store.runFacts.flush('pf');
    expect(await factRows(store, 'pf')).toEqual([]);
    const impatient = new RunFacts(clientOf(store), { orphanQuietMs: 0 });
    impatient.mark('pf', 'f1'.padEnd(32, '0'));
    await impatient.flush('pf');
    expect(await factRows(store, 'pf')).toEqual([{ run_id: 'f1'.padEnd(32, '0'), span_count: 2, service: 'tool-svc' }]);
    await store.insertSpans(t.agent);
    await store.runFacts.flush('pf');
    expect(await factRows(store, 'pf')).toEqual([{ run_id: 'run-f', span_count: 4, service: 'agent-svc' }]);
  });

  it('gives each untagged span the run of its nearest tagged ancestor when a trace carries several runs', async () => {
    const traceId = 'd1'.padEnd(32, '0');
    const one = crossService('pd', traceId, 'run-d1', 'd');
    const two = crossService('pd', traceId, 'run-d2', 'e');
    await store.insertSpans([...one.tool, ...two.tool]);
    await store.insertSpans([...one.agent, ...two.agent]);
    await store.runFacts.flush('pd');
    expect(await factRows(store, 'pd')).toEqual([
      { run_id: 'run-d1', span_count: 4, service: 'agent-svc' },
      { run_id: 'run-d2', span_count: 4, service: 'agent-svc' },
    ]);
    const runs = await spanRuns(store, 'pd');
    expect(one.ids.map((id) => runs[id])).toEqual(['run-d1', 'run-d1', 'run-d1', 'run-d1']);
    expect(two.ids.map((id) => runs[id])).toEqual(['run-d2', 'run-d2', 'run-d2', 'run-d2']);
  });

  it('resolves after a restart: the fragment stored by one process, the run by the next', async () => {
    const t = crossService('pe', 'e1'.padEnd(32, '0'), 'run-e', 'f');
    await store.insertSpans(t.tool);
    await store.close();
    store = await Store.open({ kind: 'embedded', dataDir: dir }, { runFacts: { orphanQuietMs: 60_000 } });
    await store.insertSpans(t.agent);
    await store.runFacts.reconcile();
    expect(await factRows(store, 'pe')).toEqual([{ run_id: 'run-e', span_count: 4, service: 'agent-svc' }]);
  });
});
