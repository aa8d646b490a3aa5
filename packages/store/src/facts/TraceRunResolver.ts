import type { ClickHouseClient } from '@clickhouse/client';
import type { TableStatements } from '../cluster/clusterMigrations.js';
import { nanosToDateTime64 } from '../time.js';

/**
 * How long a trace fragment of spans that name no run, and whose trace root
 * is not among them (a downstream service's spans, parented by a span of
 * another service), waits for spans that name its run before it is taken
 * for a run of its own: as long as a run may stay pending while spans keep
 * coming (RunFacts' `maxPendingMs`), three times its quiet period.
 */
export const DEFAULT_ORPHAN_QUIET_MS = 30_000;

/** What resolving a chunk of pending runs decided. */
export interface Resolution {
  /** The runs to finalise now: the chunk's, less those held or emptied, plus the runs that received spans. */
  finalise: string[];
  /** Fragments of traces whose run is not known yet: left pending, not listed as runs. */
  held: string[];
  /** Stored spans per run of the chunk, before any move (rows, not deduplicated). */
  spanCounts: Map<string, number>;
  /** Runs that received spans moved in (their spans changed since counted). */
  moved: Set<string>;
}

interface ChunkRow {
  trace_id: string;
  run_id: string;
  untagged: number | string;
  roots: number | string;
  quiet_ms: number | string;
  spans: number | string;
}

interface TraceSpan {
  trace_id: string;
  span_id: string;
  parent_span_id: string;
  run_id: string;
}

/** The chunk's runs by trace, read within their spans' time range (RUNS_TIME_SQL: `from`, `to`). */
const CHUNK_SQL = `SELECT trace_id, run_id, run_id = trace_id AS untagged, countIf(parent_span_id = '') AS roots,
    dateDiff('millisecond', max(ingested_at), now64(3)) AS quiet_ms, count() AS spans
FROM spans
WHERE project_id = {projectId:String} AND run_id IN {runIds:Array(String)}
  AND start_time >= {from:DateTime64(9, 'UTC')} AND start_time < {to:DateTime64(9, 'UTC')}
GROUP BY trace_id, run_id`;

/**
 * The traces among these that have spans naming no run (stored under their
 * trace id as run id). Asked by run id alone, so the per-run aggregates of
 * `spans` (migration 15) answer it without reading spans; a run that some
 * client named after another trace's id would only add a trace to look at.
 */
const UNTAGGED_TRACES_SQL = `SELECT run_id AS trace_id
FROM spans
WHERE project_id = {projectId:String} AND run_id IN {traceIds:Array(String)}
GROUP BY run_id`;

const TRACE_RUNS_SQL = `SELECT trace_id, groupUniqArray(run_id) AS runs
FROM trace_runs
WHERE project_id = {projectId:String} AND trace_id IN {traceIds:Array(String)}
GROUP BY trace_id`;

const TRACE_SPANS_SQL = `SELECT trace_id, span_id, parent_span_id, run_id
FROM spans
WHERE project_id = {projectId:String} AND trace_id IN {traceIds:Array(String)}`;

const UNTAGGED_MOVED = `project_id = {projectId:String} AND run_id IN {traceIds:Array(String)} AND run_id = trace_id
    AND concat(trace_id, span_id) IN {keys:Array(String)}`;

const SPAN_COLUMNS_SQL = `SELECT name FROM system.columns
WHERE database = currentDatabase() AND table = 'spans' AND default_kind NOT IN ('MATERIALIZED', 'ALIAS')
ORDER BY position`;

/**
 * Puts the spans that name no run into the run of their trace, in storage,
 * so that it holds whatever the order the spans arrived in, the thread or
 * process that took them, or a restart between them. A span without
 * `telltale.run.id` is stored under its trace id (or under the run the
 * collector's per-thread index knew, a fast path only). Before a chunk of
 * pending runs is finalised:
 *
 * - a run's trace ids give the fragments of those traces stored under the
 *   trace id (whenever they arrived); a fragment in the chunk gives the runs
 *   its trace carries (`trace_runs`, migration 0008);
 * - each such span moves to the run of its nearest ancestor that names one
 *   (the trace's only run when it carries one run): a copy under that run is
 *   inserted, then the original deleted, and the run is finalised with the
 *   chunk; an emptied fragment's facts are deleted;
 * - a fragment whose trace names no run yet is held (not finalised, so not
 *   listed) while it lacks its trace root and the trace received spans in
 *   the last `orphanQuietMs`; then it is a run of its own, as a trace whose
 *   spans name no run has always been, and merges into the run later if
 *   spans naming one arrive after all.
 *
 * Moving is idempotent: a crash between the copy and the delete leaves the
 * span in both runs until the next finalisation of either moves it again.
 */
export class TraceRunResolver {
  private spanColumns: Promise<string[]> | undefined;

  constructor(
    private readonly client: ClickHouseClient,
    private readonly orphanQuietMs = DEFAULT_ORPHAN_QUIET_MS,
    /** How its deletes reach the servers (on a cluster: the shards' local tables). */
    private readonly statements: TableStatements = (sql) => [sql],
  ) {}

  /** `window`: the first span start of these runs and just past the last (unix ns), as RUNS_TIME_SQL finds them. */
  async resolve(
    projectId: string,
    runIds: readonly string[],
    window: { fromUnixNano: bigint; toUnixNano: bigint },
  ): Promise<Resolution> {
    const chunk = await this.rows<ChunkRow>(CHUNK_SQL, {
      projectId,
      runIds,
      from: nanosToDateTime64(window.fromUnixNano),
      to: nanosToDateTime64(window.toUnixNano),
    });
    const taggedTraces = new Set<string>();
    const fragments = new Map<string, ChunkRow>();
    const spanCounts = new Map<string, number>();
    for (const r of chunk) {
      spanCounts.set(r.run_id, (spanCounts.get(r.run_id) ?? 0) + Number(r.spans));
      if (Number(r.untagged) === 1) fragments.set(r.run_id, r);
      else taggedTraces.add(r.trace_id);
    }
    const candidates = new Set(fragments.keys());
    if (taggedTraces.size > 0)
      for (const r of await this.rows<{ trace_id: string }>(UNTAGGED_TRACES_SQL, {
        projectId,
        traceIds: [...taggedTraces],
      }))
        candidates.add(r.trace_id);
    const runsOf = new Map<string, string[]>();
    if (candidates.size > 0)
      for (const r of await this.rows<{ trace_id: string; runs: string[] }>(TRACE_RUNS_SQL, {
        projectId,
        traceIds: [...candidates],
      }))
        if (r.runs.length > 0) runsOf.set(r.trace_id, r.runs);

    const moved = runsOf.size > 0 ? await this.move(projectId, runsOf) : { targets: [], emptied: new Set<string>() };
    const held: string[] = [];
    const finalise = new Set<string>();
    for (const id of runIds) {
      const fragment = fragments.get(id);
      if (moved.emptied.has(id)) continue;
      if (
        fragment !== undefined &&
        !runsOf.has(id) &&
        Number(fragment.roots) === 0 &&
        Number(fragment.quiet_ms) < this.orphanQuietMs
      ) {
        held.push(id);
        continue;
      }
      finalise.add(id);
    }
    for (const id of moved.targets) finalise.add(id);
    return { finalise: [...finalise], held, spanCounts, moved: new Set(moved.targets) };
  }

  /** Moves the untagged spans of these traces into their runs; returns the runs that received spans and the fragments emptied. */
  private async move(
    projectId: string,
    runsOf: ReadonlyMap<string, string[]>,
  ): Promise<{ targets: string[]; emptied: Set<string> }> {
    const traceIds = [...runsOf.keys()];
    const spans = await this.rows<TraceSpan>(TRACE_SPANS_SQL, { projectId, traceIds });
    const byKey = new Map(spans.map((s) => [s.trace_id + s.span_id, s]));
    const keys: string[] = [];
    const runs: string[] = [];
    const left = new Set<string>();
    for (const s of spans) {
      if (s.run_id !== s.trace_id) continue;
      const run = this.runOf(s, runsOf.get(s.trace_id) ?? [], byKey);
      if (run === undefined) {
        left.add(s.trace_id);
        continue;
      }
      keys.push(s.trace_id + s.span_id);
      runs.push(run);
    }
    const emptied = new Set(traceIds.filter((t) => !left.has(t)));
    if (keys.length > 0) {
      const columns = await (this.spanColumns ??= this.loadSpanColumns());
      const select = columns.map((c) =>
        c === 'run_id'
          ? 'transform(concat(trace_id, span_id), {keys:Array(String)}, {runs:Array(String)}, run_id)'
          : c === 'ingested_at'
            ? 'now64(3)'
            : c,
      );
      const query_params = { projectId, traceIds, keys, runs };
      // on a cluster the moved spans go to their run's shard: read and written through the Distributed
      // table, not shard by shard (the cluster's default for INSERT … SELECT keeps rows where they were read)
      await this.client.command({
        query: `INSERT INTO spans (${columns.join(', ')}) SELECT ${select.join(', ')} FROM spans WHERE ${UNTAGGED_MOVED}
SETTINGS parallel_distributed_insert_select = 0`,
        query_params,
      });
      await this.delete(`DELETE FROM spans WHERE ${UNTAGGED_MOVED}`, query_params);
    }
    if (emptied.size > 0) {
      const params = { projectId, runIds: [...emptied] };
      const finalised = await this.rows<{ run_id: string }>(
        'SELECT DISTINCT run_id FROM run_facts WHERE project_id = {projectId:String} AND run_id IN {runIds:Array(String)}',
        params,
      );
      if (finalised.length > 0) {
        const query_params = { projectId, runIds: finalised.map((r) => r.run_id) };
        for (const table of ['run_facts', 'run_step_facts', 'run_steps'])
          await this.delete(
            `DELETE FROM ${table} WHERE project_id = {projectId:String} AND run_id IN {runIds:Array(String)}`,
            query_params,
          );
      }
    }
    return { targets: [...new Set(runs)], emptied };
  }

  private async delete(sql: string, query_params: Record<string, unknown>): Promise<void> {
    for (const query of this.statements(sql)) await this.client.command({ query, query_params });
  }

  /** The run of an untagged span: its nearest tagged ancestor's, else the trace's only run. */
  private runOf(s: TraceSpan, runs: readonly string[], byKey: ReadonlyMap<string, TraceSpan>): string | undefined {
    let parent = byKey.get(s.trace_id + s.parent_span_id);
    for (let depth = 0; parent !== undefined && depth < 1024; depth++) {
      if (parent.run_id !== parent.trace_id) return parent.run_id;
      parent = byKey.get(parent.trace_id + parent.parent_span_id);
    }
    return runs.length === 1 ? runs[0] : undefined;
  }

  private loadSpanColumns(): Promise<string[]> {
    const columns = this.rows<{ name: string }>(SPAN_COLUMNS_SQL, {}).then((rows) => rows.map((r) => r.name));
    columns.catch(() => (this.spanColumns = undefined));
    return columns;
  }

  private async rows<T>(query: string, query_params: Record<string, unknown>): Promise<T[]> {
    const result = await this.client.query({ query, format: 'JSONEachRow', query_params });
    return result.json<T>();
  }
}
