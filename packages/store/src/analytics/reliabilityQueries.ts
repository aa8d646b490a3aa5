import type { ClickHouseClient } from '@clickhouse/client';
import type { AnalyticsFilter, PriceTable } from './AnalyticsFilter.js';
import { ATTEMPT_GROUPS_CTE, PRICED_SPANS_CTE, RUNS_CTE, filterParams, withClause } from './sqlParts.js';

/** Attempt-group counts of one step name within one agent (completed runs only). */
export interface StepGroupStats {
  agent: string;
  service: string;
  stepName: string;
  stepKind: string;
  groups: number;
  /** Groups in successful runs (for k(s)). */
  groupsInSuccessfulRuns: number;
  firstOk: number;
  anyOk: number;
  failedFirst: number;
  recovered: number;
  attempts: number;
  okAttempts: number;
  retryExtraNs: number;
  retryExtraCostUsd: number;
}

/** Run counts of one agent. */
export interface AgentRunStats {
  agent: string;
  service: string;
  success: number;
  failure: number;
  incomplete: number;
  /** Failed runs with a group that never succeeded. */
  stepExplainedFailures: number;
  /** Failed runs in which every group eventually succeeded. */
  seamFailures: number;
  /** Successful runs despite a group that never succeeded. */
  fallbackRecoveries: number;
}

/** Observed success of completed runs by their number of attempt groups. */
export interface CurvePoint {
  groups: number;
  runs: number;
  success: number;
}

type Num = number | string;
const n = (v: Num): number => Number(v);

const STEP_STATS_SQL = `${withClause(PRICED_SPANS_CTE, RUNS_CTE, ATTEMPT_GROUPS_CTE)}
SELECT
    agent, service, step_name, any(step_kind) AS kind,
    count() AS groups,
    countIf(run_outcome = 'success') AS groups_in_success,
    countIf(first_ok) AS first_ok_groups,
    countIf(any_ok) AS any_ok_groups,
    countIf(NOT first_ok) AS failed_first,
    countIf(NOT first_ok AND any_ok) AS recovered,
    sum(attempts) AS attempts,
    sum(ok_attempts) AS ok_attempts,
    sum(retry_extra_ns) AS retry_extra_ns,
    sum(retry_extra_cost) AS retry_extra_cost
FROM attempt_groups
WHERE run_outcome != 'incomplete' AND group_match
GROUP BY agent, service, step_name
ORDER BY agent, service, step_name`;

const AGENT_RUNS_SQL = `${withClause(PRICED_SPANS_CTE, RUNS_CTE, ATTEMPT_GROUPS_CTE)},
run_groups AS (
    SELECT run_id, countIf(NOT any_ok) AS never_ok_groups
    FROM attempt_groups
    GROUP BY run_id
)
SELECT
    r.agent AS agent, r.service AS service,
    countIf(r.outcome = 'success') AS success,
    countIf(r.outcome = 'failure') AS failure,
    countIf(r.outcome = 'incomplete') AS incomplete,
    countIf(r.outcome = 'failure' AND g.never_ok_groups > 0) AS step_explained,
    countIf(r.outcome = 'failure' AND g.never_ok_groups = 0) AS seam,
    countIf(r.outcome = 'success' AND g.never_ok_groups > 0) AS fallback
FROM runs AS r
LEFT JOIN run_groups AS g ON g.run_id = r.run_id
GROUP BY agent, service
ORDER BY agent, service`;

const CURVE_SQL = `${withClause(PRICED_SPANS_CTE, RUNS_CTE, ATTEMPT_GROUPS_CTE)},
run_groups AS (SELECT run_id, count() AS group_count FROM attempt_groups GROUP BY run_id)
SELECT ifNull(g.group_count, 0) AS groups, count() AS runs, countIf(r.outcome = 'success') AS success
FROM runs AS r
LEFT JOIN run_groups AS g ON g.run_id = r.run_id
WHERE r.outcome != 'incomplete'
GROUP BY groups
ORDER BY groups`;

export async function queryStepGroupStats(client: ClickHouseClient, filter: AnalyticsFilter, prices: PriceTable): Promise<StepGroupStats[]> {
  const result = await client.query({ query: STEP_STATS_SQL, format: 'JSONEachRow', query_params: filterParams(filter, prices) });
  const rows = await result.json<Record<string, Num> & { agent: string; service: string; step_name: string; kind: string }>();
  return rows.map((r) => ({
    agent: r.agent,
    service: r.service,
    stepName: r.step_name,
    stepKind: r.kind,
    groups: n(r.groups!),
    groupsInSuccessfulRuns: n(r.groups_in_success!),
    firstOk: n(r.first_ok_groups!),
    anyOk: n(r.any_ok_groups!),
    failedFirst: n(r.failed_first!),
    recovered: n(r.recovered!),
    attempts: n(r.attempts!),
    okAttempts: n(r.ok_attempts!),
    retryExtraNs: n(r.retry_extra_ns!),
    retryExtraCostUsd: n(r.retry_extra_cost!),
  }));
}

export async function queryAgentRunStats(client: ClickHouseClient, filter: AnalyticsFilter, prices: PriceTable): Promise<AgentRunStats[]> {
  const result = await client.query({ query: AGENT_RUNS_SQL, format: 'JSONEachRow', query_params: filterParams(filter, prices) });
  const rows = await result.json<Record<string, Num> & { agent: string; service: string }>();
  return rows.map((r) => ({
    agent: r.agent,
    service: r.service,
    success: n(r.success!),
    failure: n(r.failure!),
    incomplete: n(r.incomplete!),
    stepExplainedFailures: n(r.step_explained!),
    seamFailures: n(r.seam!),
    fallbackRecoveries: n(r.fallback!),
  }));
}

export async function queryCompoundingCurve(client: ClickHouseClient, filter: AnalyticsFilter, prices: PriceTable): Promise<CurvePoint[]> {
  const result = await client.query({ query: CURVE_SQL, format: 'JSONEachRow', query_params: filterParams(filter, prices) });
  const rows = await result.json<Record<string, Num>>();
  return rows.map((r) => ({ groups: n(r.groups!), runs: n(r.runs!), success: n(r.success!) }));
}
