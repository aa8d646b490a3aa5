import type { ClickHouseClient } from '@clickhouse/client';
import type { AnalyticsFilter, PriceTable } from './AnalyticsFilter.js';
import { MATERIALIZED_CTE_SETTINGS, medianParams, thresholdParams } from './loopParams.js';
import { loopArrayColumns, loopFoundCte, scopedRunsCtes, type AgentLimitsSource } from './loopSql.js';
import type { AgentStepMedian, LoopThresholds } from './loopTypes.js';
import { PRICED_SPANS_CTE, RUNS_CTE, STEP_LEDGER_CTE, filterParams, withClause } from './sqlParts.js';
import { FACT_RUNS_CTE } from '../facts/factsSql.js';
import { useRunFacts } from '../facts/useRunFacts.js';

/** Primary failure causes of RELIABILITY-MATH "Failure taxonomy", in priority order. */
export const FAILURE_CAUSES = ['loop', 'partial_execution', 'tool_failure', 'validation_exhausted', 'llm_error', 'timeout', 'unknown'] as const;
export type FailureCause = (typeof FAILURE_CAUSES)[number];

/** Error types that mean a timeout (on the root, or on the failing span). */
export const TIMEOUT_ERROR_PATTERN = '(?i)timeout|timed.?out|deadline';

/**
 * Per failed run, the facts the causes need, in one pass over its step spans
 * (needs PRICED_SPANS_CTE and scoped_runs): the loop arrays, the latest
 * failed step span (end and error type), the successful side-effect steps,
 * and the last validate span.
 */
export const CAUSE_FACTS_CTE = `cause_facts AS MATERIALIZED (
    SELECT run_id,
        ${loopArrayColumns('flags')},
        maxIf(toUnixTimestamp64Nano(end_time), NOT ok) AS last_fail_end_ns,
        argMaxIf(error_type, (end_time, span_id), NOT ok) AS last_fail_error_type,
        countIf(side_effect AND ok) AS ok_effects,
        minIf(toUnixTimestamp64Nano(end_time), side_effect AND ok) AS first_effect_end_ns,
        countIf(step_kind = 'validate') AS validations,
        argMaxIf(ok, (start_time, span_id), step_kind = 'validate') AS last_validate_ok
    FROM priced
    WHERE step_kind NOT IN ('', 'run') AND run_id IN (SELECT run_id FROM scoped_runs)
    GROUP BY run_id
)`;

/** Attempt groups that never succeeded, per scoped run and step kind (needs STEP_LEDGER_CTE and scoped_runs). */
export const CAUSE_GROUPS_CTE = `cause_groups AS (
    SELECT run_id,
        sum(g_start) AS group_count,
        sum(g_start) - sum(g_first_ok) - sum(g_recovered) AS never_ok,
        sumIf(g_start, step_kind = 'tool') - sumIf(g_first_ok, step_kind = 'tool') - sumIf(g_recovered, step_kind = 'tool') AS never_ok_tool,
        sumIf(g_start, step_kind = 'llm') - sumIf(g_first_ok, step_kind = 'llm') - sumIf(g_recovered, step_kind = 'llm') AS never_ok_llm
    FROM step_ledger
    WHERE run_id IN (SELECT run_id FROM scoped_runs)
    GROUP BY run_id
)`;

/**
 * One primary cause per failed run, the first that holds:
 * - loop: a loop detection (runaway included);
 * - partial_execution: a side-effect step succeeded at or before the
 *   failure: the end of the latest-ending failed step span when an attempt
 *   group never succeeded, else the end of the run;
 * - tool_failure / llm_error: a tool / llm attempt group never succeeded;
 * - validation_exhausted: the run's last validate span (by start) failed;
 * - timeout: the root's error type, or (when a group never succeeded) the
 *   latest-ending failed step span's, matches TIMEOUT_ERROR_PATTERN;
 * - unknown.
 *
 * CAUSE_WITHOUT_LOOP_SQL is every branch but the first (`r` a run with
 * run_end and root_error_type, `f` its cause_facts, `g` its cause_groups):
 * the run facts store it, and add `loop` at query time, since runaway
 * limits depend on the other runs of the window.
 */
export const CAUSE_WITHOUT_LOOP_SQL = `multiIf(
            f.ok_effects > 0 AND f.first_effect_end_ns <= if(g.never_ok > 0, f.last_fail_end_ns, toUnixTimestamp64Nano(r.run_end)), 'partial_execution',
            g.never_ok_tool > 0, 'tool_failure',
            f.validations > 0 AND NOT f.last_validate_ok, 'validation_exhausted',
            g.never_ok_llm > 0, 'llm_error',
            match(r.root_error_type, '${TIMEOUT_ERROR_PATTERN}') OR (g.never_ok > 0 AND match(f.last_fail_error_type, '${TIMEOUT_ERROR_PATTERN}')), 'timeout',
            'unknown')`;

const RUN_CAUSES_CTE = `run_causes AS (
    SELECT
        r.run_id AS run_id, r.run_start AS run_start,
        if(notEmpty(l.dets) OR r.steps > r.step_limit, 'loop', ${CAUSE_WITHOUT_LOOP_SQL}) AS cause
    FROM scoped_runs AS r
    LEFT JOIN cause_facts AS f ON f.run_id = r.run_id
    LEFT JOIN loop_found AS l ON l.run_id = r.run_id
    LEFT JOIN cause_groups AS g ON g.run_id = r.run_id
    SETTINGS join_use_nulls = 0
)`;

/** run_causes from the run facts: the stored cause, or `loop` when a stored loop kind or the runaway limit says so. */
const FACT_RUN_CAUSES_CTE = `run_causes AS (
    SELECT run_id, run_start, if(notEmpty(loop_kinds) OR steps > step_limit, 'loop', cause_base) AS cause
    FROM scoped_runs
)`;

/** The WITH clause ending in `run_causes (run_id, run_start, cause)`: from the run facts when the query allows, else from the spans. */
function causesChain(limits: AgentLimitsSource, facts: boolean): string {
  if (facts) return withClause(FACT_RUNS_CTE, scopedRunsCtes('failed', limits, ['loop_kinds', 'cause_base']), FACT_RUN_CAUSES_CTE);
  return withClause(
    PRICED_SPANS_CTE,
    RUNS_CTE,
    scopedRunsCtes('failed', limits),
    CAUSE_FACTS_CTE,
    loopFoundCte('cause_facts', 'flags'),
    STEP_LEDGER_CTE,
    CAUSE_GROUPS_CTE,
    RUN_CAUSES_CTE,
  );
}

type Num = number | string;

function params(filter: AnalyticsFilter, prices: PriceTable, thresholds: LoopThresholds, medians: readonly AgentStepMedian[] | undefined): Record<string, unknown> {
  return { ...filterParams(filter, prices), ...thresholdParams(thresholds), ...medianParams(medians) };
}

function countsSql(limits: AgentLimitsSource, facts: boolean): string {
  return `${causesChain(limits, facts)}
SELECT cause, count() AS runs FROM run_causes GROUP BY cause`;
}

/** Failed runs per primary cause (every cause present, zeros included). */
export async function queryFailureCauses(
  client: ClickHouseClient,
  filter: AnalyticsFilter,
  prices: PriceTable,
  thresholds: LoopThresholds,
  medians?: readonly AgentStepMedian[],
): Promise<Record<FailureCause, number>> {
  const result = await client.query({
    query: countsSql(medians === undefined ? 'inline' : 'bound', await useRunFacts(client, filter, thresholds)),
    format: 'JSONEachRow',
    query_params: params(filter, prices, thresholds, medians),
    clickhouse_settings: MATERIALIZED_CTE_SETTINGS,
  });
  const rows = await result.json<{ cause: FailureCause; runs: Num }>();
  const counts = Object.fromEntries(FAILURE_CAUSES.map((c) => [c, 0])) as Record<FailureCause, number>;
  for (const r of rows) counts[r.cause] = Number(r.runs);
  return counts;
}

/** Failed runs per cause in one interval of run start. */
export interface FailureBucket {
  /** Bucket start, ms since the epoch (buckets align to the epoch). */
  bucketStartMs: number;
  counts: Record<FailureCause, number>;
}

function seriesSql(limits: AgentLimitsSource, facts: boolean): string {
  return `${causesChain(limits, facts)}
SELECT intDiv(toUnixTimestamp64Milli(run_start), {intervalMs:Int64}) * {intervalMs:Int64} AS bucket_ms, cause, count() AS runs
FROM run_causes
GROUP BY bucket_ms, cause
ORDER BY bucket_ms, cause`;
}

/** Failed runs per cause per interval of run start; intervals without failed runs are absent. */
export async function queryFailureSeries(
  client: ClickHouseClient,
  filter: AnalyticsFilter,
  prices: PriceTable,
  thresholds: LoopThresholds,
  intervalSeconds: number,
  medians?: readonly AgentStepMedian[],
): Promise<FailureBucket[]> {
  if (!Number.isInteger(intervalSeconds) || intervalSeconds < 1) throw new RangeError(`interval must be a whole number of seconds ≥ 1, got ${intervalSeconds}`);
  const result = await client.query({
    query: seriesSql(medians === undefined ? 'inline' : 'bound', await useRunFacts(client, filter, thresholds)),
    format: 'JSONEachRow',
    query_params: { ...params(filter, prices, thresholds, medians), intervalMs: intervalSeconds * 1000 },
    clickhouse_settings: MATERIALIZED_CTE_SETTINGS,
  });
  const rows = await result.json<{ bucket_ms: Num; cause: FailureCause; runs: Num }>();
  const buckets: FailureBucket[] = [];
  for (const r of rows) {
    const ms = Number(r.bucket_ms);
    let b = buckets.at(-1);
    if (b?.bucketStartMs !== ms) {
      b = { bucketStartMs: ms, counts: Object.fromEntries(FAILURE_CAUSES.map((c) => [c, 0])) as Record<FailureCause, number> };
      buckets.push(b);
    }
    b.counts[r.cause] = Number(r.runs);
  }
  return buckets;
}

/** The primary cause of one failed run. */
export interface RunCause {
  runId: string;
  cause: FailureCause;
}

function runCausesSql(limits: AgentLimitsSource, facts: boolean): string {
  return `${causesChain(limits, facts)}
SELECT run_id, cause FROM run_causes ORDER BY run_id`;
}

/**
 * The cause of each failed run of the filter. For a page of runs pass
 * `filter.runIds` and the agents' medians over the whole window
 * (queryAgentStepMedians), so runaway limits do not depend on the page.
 */
export async function queryRunCauses(
  client: ClickHouseClient,
  filter: AnalyticsFilter,
  prices: PriceTable,
  thresholds: LoopThresholds,
  medians?: readonly AgentStepMedian[],
): Promise<RunCause[]> {
  const result = await client.query({
    query: runCausesSql(medians === undefined ? 'inline' : 'bound', await useRunFacts(client, filter, thresholds)),
    format: 'JSONEachRow',
    query_params: params(filter, prices, thresholds, medians),
    clickhouse_settings: MATERIALIZED_CTE_SETTINGS,
  });
  const rows = await result.json<{ run_id: string; cause: FailureCause }>();
  return rows.map((r) => ({ runId: r.run_id, cause: r.cause }));
}
