import type { ClickHouseClient } from '@clickhouse/client';
import { nanosToDateTime64 } from '../time.js';
import type { Page, RunFilter, RunOutcomeValue, RunSummary } from './RunSummary.js';

interface RunRow {
  run_id: string;
  trace_id: string;
  name: string;
  service: string;
  outcome: RunOutcomeValue;
  start_ns: string;
  duration_ns: string;
  steps: string | number;
  spans: string | number;
  cost_usd: number;
  input_tokens: string | number;
  output_tokens: string | number;
  error_type: string;
}

/**
 * One row per run. The root of a run is its span of step kind `run`, else a
 * span the collector marked as a run root (an agent invocation or the trace
 * root); with no root the run has not ended: `incomplete`.
 */
const RUNS_GROUPED_SQL = `
SELECT
    run_id,
    any(trace_id) AS trace_id,
    argMax(name, root_key) AS name,
    argMax(service_name, root_key) AS service,
    max(root_rank) AS best_rank,
    argMax(status_code, root_key) AS root_status,
    argMax(run_outcome, root_key) AS root_outcome,
    multiIf(best_rank = 0, 'incomplete', root_status = 2 OR root_outcome = 'failure', 'failure', 'success') AS outcome,
    min(start_time) AS run_start,
    toString(toUnixTimestamp64Nano(run_start)) AS start_ns,
    toString(toUnixTimestamp64Nano(max(end_time)) - toUnixTimestamp64Nano(run_start)) AS duration_ns,
    countIf(step_kind NOT IN ('', 'run')) AS steps,
    count() AS spans,
    sum(ifNull(cost_usd, 0)) AS cost_usd,
    sum(input_tokens) AS input_tokens,
    sum(output_tokens) AS output_tokens,
    if(argMax(error_type, root_key) != '', argMax(error_type, root_key), argMinIf(error_type, start_time, error_type != '')) AS error_type
FROM
(
    SELECT *,
        multiIf(step_kind = 'run', 2, is_run_root, 1, 0) AS root_rank,
        (root_rank, -toUnixTimestamp64Nano(start_time)) AS root_key
    FROM spans
    WHERE project_id = {projectId:String}
      AND start_time >= {from:DateTime64(9, 'UTC')}
      AND start_time < {to:DateTime64(9, 'UTC')}
      AND ({runId:String} = '' OR run_id = {runId:String})
)
GROUP BY run_id
HAVING ({outcome:String} = '' OR outcome = {outcome:String})
   AND ({service:String} = '' OR service = {service:String})`;

const MAX_TIME_NS = 4_102_444_800_000_000_000n; // 2100-01-01

function filterParams(filter: RunFilter): Record<string, string> {
  return {
    projectId: filter.projectId,
    from: nanosToDateTime64(filter.fromUnixNano ?? 0n),
    to: nanosToDateTime64(filter.toUnixNano ?? MAX_TIME_NS),
    runId: filter.runId ?? '',
    outcome: filter.outcome ?? '',
    service: filter.service ?? '',
  };
}

/** A page of runs, newest first, and the total matching the filter. */
export async function listRuns(client: ClickHouseClient, filter: RunFilter, page: Page): Promise<{ runs: RunSummary[]; total: number }> {
  const params = filterParams(filter);
  const [pageResult, countResult] = await Promise.all([
    client.query({
      query: `${RUNS_GROUPED_SQL}\nORDER BY run_start DESC, run_id\nLIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
      format: 'JSONEachRow',
      query_params: { ...params, limit: page.limit, offset: page.offset },
    }),
    client.query({ query: `SELECT count() AS total FROM (${RUNS_GROUPED_SQL})`, format: 'JSONEachRow', query_params: params }),
  ]);
  const rows = await pageResult.json<RunRow>();
  const [count] = await countResult.json<{ total: string | number }>();
  return { runs: rows.map(toRunSummary), total: Number(count?.total ?? 0) };
}

function toRunSummary(r: RunRow): RunSummary {
  return {
    runId: r.run_id,
    traceId: r.trace_id,
    name: r.name,
    service: r.service,
    outcome: r.outcome,
    startTimeUnixNano: r.start_ns,
    durationNs: r.duration_ns,
    steps: Number(r.steps),
    spans: Number(r.spans),
    costUsd: Number(r.cost_usd),
    inputTokens: Number(r.input_tokens),
    outputTokens: Number(r.output_tokens),
    errorType: r.error_type,
  };
}
