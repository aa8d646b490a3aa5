import type { StoreDb } from '../StoreDb.js';
import type { AnalyticsFilter, PriceTable } from './AnalyticsFilter.js';
import { FACT_RUNS_CTE, FACT_STEPS_CTE } from '../facts/factsSql.js';
import { useRunFacts } from '../facts/useRunFacts.js';
import {
  COMPLETED_RUNS_CTE,
  PRICED_SPANS_CTE,
  RUN_ROOTS_CTE,
  RUNS_CTE,
  STEP_LEDGER_CTE,
  filterParams,
  withClause,
} from '../sql/sqlParts.js';

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

const STEP_STATS_SQL = `${withClause(PRICED_SPANS_CTE, RUN_ROOTS_CTE, COMPLETED_RUNS_CTE, STEP_LEDGER_CTE)}
SELECT
    r.agent AS agent, r.service AS service, l.step_name AS step_name, any(l.step_kind) AS kind,
    sum(l.g_start) AS groups,
    sumIf(l.g_start, r.outcome = 'success') AS groups_in_success,
    sum(l.g_first_ok) AS first_ok_groups,
    sum(l.g_recovered) AS recovered,
    first_ok_groups + recovered AS any_ok_groups,
    groups - first_ok_groups AS failed_first,
    count() AS attempts,
    countIf(l.ok) AS ok_attempts,
    sumIf(l.duration_ns, NOT l.g_start) AS retry_extra_ns,
    sumIf(l.cost, NOT l.g_start) AS retry_extra_cost
FROM step_ledger AS l
INNER JOIN completed_runs AS r ON r.run_id = l.run_id
WHERE l.span_match
GROUP BY agent, service, step_name
ORDER BY agent, service, step_name`;

const FACT_STEP_STATS_SQL = `${withClause(FACT_STEPS_CTE)}
SELECT
    agent, service, step_name, any(step_kind) AS kind,
    sum(g_n) AS groups,
    sumIf(g_n, outcome = 'success') AS groups_in_success,
    sum(g_first_ok) AS first_ok_groups,
    sum(g_recovered) AS recovered,
    first_ok_groups + recovered AS any_ok_groups,
    groups - first_ok_groups AS failed_first,
    sum(n_attempts) AS attempts,
    sum(n_ok) AS ok_attempts,
    sum(r_ns) AS retry_extra_ns,
    sum(r_cost) AS retry_extra_cost
FROM fact_steps
GROUP BY agent, service, step_name
ORDER BY agent, service, step_name`;

/** Never-OK groups and group count per run, from the ledger. */
const RUN_GROUPS_CTE = `run_groups AS (
    SELECT run_id, sum(g_start) AS group_count, sum(g_start) - sum(g_first_ok) - sum(g_recovered) AS never_ok_groups
    FROM step_ledger
    GROUP BY run_id
)`;

const AGENT_RUNS_SQL = `${withClause(PRICED_SPANS_CTE, RUNS_CTE, STEP_LEDGER_CTE, RUN_GROUPS_CTE)}
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

const FACT_AGENT_RUNS_SQL = `${withClause(FACT_RUNS_CTE)}
SELECT
    agent, service,
    countIf(outcome = 'success') AS success,
    countIf(outcome = 'failure') AS failure,
    countIf(outcome = 'incomplete') AS incomplete,
    countIf(outcome = 'failure' AND never_ok > 0) AS step_explained,
    countIf(outcome = 'failure' AND never_ok = 0) AS seam,
    countIf(outcome = 'success' AND never_ok > 0) AS fallback
FROM runs
GROUP BY agent, service
ORDER BY agent, service`;

const FACT_CURVE_SQL = `${withClause(FACT_RUNS_CTE)}
SELECT groups, count() AS runs, countIf(outcome = 'success') AS success
FROM runs
WHERE outcome != 'incomplete'
GROUP BY groups
ORDER BY groups`;

const CURVE_SQL = `${withClause(PRICED_SPANS_CTE, RUNS_CTE, STEP_LEDGER_CTE, RUN_GROUPS_CTE)}
SELECT ifNull(g.group_count, 0) AS groups, count() AS runs, countIf(r.outcome = 'success') AS success
FROM runs AS r
LEFT JOIN run_groups AS g ON g.run_id = r.run_id
WHERE r.outcome != 'incomplete'
GROUP BY groups
ORDER BY groups`;

export async function queryStepGroupStats(
  db: StoreDb,
  filter: AnalyticsFilter,
  prices: PriceTable,
): Promise<StepGroupStats[]> {
  const { client } = db;
  const result = await client.query({
    query: (await useRunFacts(db.runFacts, filter)) ? FACT_STEP_STATS_SQL : STEP_STATS_SQL,
    format: 'JSONEachRow',
    query_params: filterParams(filter, prices),
  });
  const rows = await result.json<
    Record<string, Num> & { agent: string; service: string; step_name: string; kind: string }
  >();
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

export async function queryAgentRunStats(
  db: StoreDb,
  filter: AnalyticsFilter,
  prices: PriceTable,
): Promise<AgentRunStats[]> {
  const { client } = db;
  const result = await client.query({
    query: (await useRunFacts(db.runFacts, filter)) ? FACT_AGENT_RUNS_SQL : AGENT_RUNS_SQL,
    format: 'JSONEachRow',
    query_params: filterParams(filter, prices),
  });
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

export async function queryCompoundingCurve(
  db: StoreDb,
  filter: AnalyticsFilter,
  prices: PriceTable,
): Promise<CurvePoint[]> {
  const { client } = db;
  const result = await client.query({
    query: (await useRunFacts(db.runFacts, filter)) ? FACT_CURVE_SQL : CURVE_SQL,
    format: 'JSONEachRow',
    query_params: filterParams(filter, prices),
  });
  const rows = await result.json<Record<string, Num>>();
  return rows.map((r) => ({ groups: n(r.groups!), runs: n(r.runs!), success: n(r.success!) }));
}
