import type { StoreDb } from '../StoreDb.js';
import type { AnalyticsFilter, PriceTable } from './AnalyticsFilter.js';
import { MATERIALIZED_CTE_SETTINGS, medianParams, thresholdParams } from '../sql/loopParams.js';
import { loopFoundCte, scopedRunsCtes, type AgentLimitsSource } from '../sql/loopSql.js';
import { CAUSE_FACTS_CTE, CAUSE_GROUPS_CTE, CAUSE_WITHOUT_LOOP_SQL } from '../sql/causeSql.js';
import type { AgentStepMedian, LoopThresholds } from './loopTypes.js';
import { PRICED_SPANS_CTE, RUNS_CTE, STEP_LEDGER_CTE, filterParams, withClause } from '../sql/sqlParts.js';
import { FACT_RUNS_CTE } from '../facts/factsSql.js';
import { useRunFacts } from '../facts/useRunFacts.js';
import { FAILURE_CAUSES, type FailureCause, seriesIntervalMs } from '@telltale/semconv';

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
  if (facts)
    return withClause(
      FACT_RUNS_CTE,
      scopedRunsCtes('failed', limits, ['loop_kinds', 'cause_base']),
      FACT_RUN_CAUSES_CTE,
    );
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

function params(
  filter: AnalyticsFilter,
  prices: PriceTable,
  thresholds: LoopThresholds,
  medians: readonly AgentStepMedian[] | undefined,
): Record<string, unknown> {
  return { ...filterParams(filter, prices), ...thresholdParams(thresholds), ...medianParams(medians) };
}

function countsSql(limits: AgentLimitsSource, facts: boolean): string {
  return `${causesChain(limits, facts)}
SELECT cause, count() AS runs FROM run_causes GROUP BY cause`;
}

/** Failed runs per primary cause (every cause present, zeros included). */
export async function queryFailureCauses(
  db: StoreDb,
  filter: AnalyticsFilter,
  prices: PriceTable,
  thresholds: LoopThresholds,
  medians?: readonly AgentStepMedian[],
): Promise<Record<FailureCause, number>> {
  const { client } = db;
  const result = await client.query({
    query: countsSql(medians === undefined ? 'inline' : 'bound', await useRunFacts(db.runFacts, filter, thresholds)),
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
  db: StoreDb,
  filter: AnalyticsFilter,
  prices: PriceTable,
  thresholds: LoopThresholds,
  intervalSeconds: number,
  medians?: readonly AgentStepMedian[],
): Promise<FailureBucket[]> {
  const { client } = db;
  const intervalMs = seriesIntervalMs(intervalSeconds);
  const result = await client.query({
    query: seriesSql(medians === undefined ? 'inline' : 'bound', await useRunFacts(db.runFacts, filter, thresholds)),
    format: 'JSONEachRow',
    query_params: { ...params(filter, prices, thresholds, medians), intervalMs },
    clickhouse_settings: MATERIALIZED_CTE_SETTINGS,
  });
  const rows = await result.json<{ bucket_ms: Num; cause: FailureCause; runs: Num }>();
  const buckets: FailureBucket[] = [];
  for (const r of rows) {
    const ms = Number(r.bucket_ms);
    let b = buckets.at(-1);
    if (b?.bucketStartMs !== ms) {
      b = {
        bucketStartMs: ms,
        counts: Object.fromEntries(FAILURE_CAUSES.map((c) => [c, 0])) as Record<FailureCause, number>,
      };
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
  db: StoreDb,
  filter: AnalyticsFilter,
  prices: PriceTable,
  thresholds: LoopThresholds,
  medians?: readonly AgentStepMedian[],
): Promise<RunCause[]> {
  const { client } = db;
  const result = await client.query({
    query: runCausesSql(medians === undefined ? 'inline' : 'bound', await useRunFacts(db.runFacts, filter, thresholds)),
    format: 'JSONEachRow',
    query_params: params(filter, prices, thresholds, medians),
    clickhouse_settings: MATERIALIZED_CTE_SETTINGS,
  });
  const rows = await result.json<{ run_id: string; cause: FailureCause }>();
  return rows.map((r) => ({ runId: r.run_id, cause: r.cause }));
}
