import type { ClickHouseClient } from '@clickhouse/client';
import type { TableStatements } from '../cluster/clusterMigrations.js';

/** What deleting a run removed. */
export interface DeletedRun {
  runId: string;
  /** Span rows of the run. */
  spans: number;
  /** Spans of the run whose content was kept. */
  contentSpans: number;
}

/** The run's span rows, and whether it has facts (a run whose spans expired may keep them). */
const FOUND_SQL = `SELECT
  (SELECT count() FROM spans WHERE project_id = {projectId:String} AND run_id = {runId:String}) AS spans,
  (SELECT count() FROM run_facts WHERE project_id = {projectId:String} AND run_id = {runId:String}) AS facts`;

/**
 * The run's spans, by their keys (a span id is unique within its trace only):
 * a span's run may have changed after its content was stored (trace resolution).
 */
const RUN_SPANS = `(trace_id, span_id) IN (
    SELECT trace_id, span_id FROM spans WHERE project_id = {projectId:String} AND run_id = {runId:String}
  )`;

/**
 * Deletes a run and everything kept about it: its content, its spans, its
 * facts (run, steps, step facts) and its trace links, in that order (the
 * content is found through the spans; facts written meanwhile from spans
 * still stored are deleted after them). Lightweight deletes: the rows are
 * gone from every query at once, from disk at the tables' next merges.
 * `statements` sends each delete where the tables are (on a cluster, the
 * shards' local tables: Store's tableStatements). Undefined when the
 * project has no such run. Per-minute rollups (counts and latency sketches
 * by step, tool and model, no ids or content) keep the run's share until
 * they expire.
 */
export async function deleteRun(
  client: ClickHouseClient,
  projectId: string,
  runId: string,
  statements: TableStatements,
): Promise<DeletedRun | undefined> {
  const found = await client.query({ query: FOUND_SQL, query_params: { projectId, runId }, format: 'JSONEachRow' });
  const [row] = await found.json<{ spans: number | string; facts: number | string }>();
  const spans = Number(row?.spans ?? 0);
  if (spans === 0 && Number(row?.facts ?? 0) === 0) return undefined;
  const query_params = { projectId, runId };
  const remove = async (sql: string): Promise<void> => {
    for (const query of statements(sql)) await client.command({ query, query_params });
  };
  let contentSpans = 0;
  if (spans > 0) {
    const content = await client.query({
      query: `SELECT count(DISTINCT trace_id, span_id) AS n FROM span_content WHERE project_id = {projectId:String} AND ${RUN_SPANS}`,
      query_params,
      format: 'JSONEachRow',
    });
    contentSpans = Number((await content.json<{ n: number | string }>())[0]?.n ?? 0);
    // its subquery reads the run's spans, still there (they go next); a replicated table takes a delete with a
    // subquery only with allow_nondeterministic_mutations
    if (contentSpans > 0)
      await remove(
        `DELETE FROM span_content WHERE project_id = {projectId:String} AND ${RUN_SPANS} SETTINGS allow_nondeterministic_mutations = 1`,
      );
    await remove('DELETE FROM spans WHERE project_id = {projectId:String} AND run_id = {runId:String}');
  }
  for (const table of ['run_step_facts', 'run_steps', 'run_facts', 'trace_runs'])
    await remove(`DELETE FROM ${table} WHERE project_id = {projectId:String} AND run_id = {runId:String}`);
  return { runId, spans, contentSpans };
}
