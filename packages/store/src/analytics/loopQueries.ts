import { seriesIntervalMs } from '@telltale/semconv';
import type { StoreDb } from '../StoreDb.js';
import type { AnalyticsFilter, PriceTable } from './AnalyticsFilter.js';
import { FACT_RUNS_CTE } from '../facts/factsSql.js';
import { useRunFacts } from '../facts/useRunFacts.js';
import { RUN_WASTE_CTE, loopChain, scopedRunsCtes, type AgentLimitsSource } from '../sql/loopSql.js';
import { factLoopChain } from '../facts/factLoopsSql.js';
import {
  LOOP_KINDS,
  type AgentStepMedian,
  type LoopKind,
  type LoopRateBucket,
  type LoopStepRow,
  type LoopThresholds,
  type RunLoopFlag,
} from './loopTypes.js';
import { MATERIALIZED_CTE_SETTINGS, medianParams, thresholdParams } from '../sql/loopParams.js';
import { PRICED_SPANS_CTE, RUNS_CTE, filterParams, withClause } from '../sql/sqlParts.js';

type Num = number | string;
const n = (v: Num | null | undefined): number => Number(v ?? 0);

/** Whether a run of scoped_runs loops, from the run facts: a stored loop kind, or over the runaway limit. */
const FACT_LOOPS_SQL = 'notEmpty(loop_kinds) OR steps > step_limit';

function factLoopsChain(limits: AgentLimitsSource): string {
  return withClause(FACT_RUNS_CTE, scopedRunsCtes('all', limits, ['loop_kinds']));
}

function rateSql(limits: AgentLimitsSource, facts: boolean): string {
  if (facts) {
    return `${factLoopsChain(limits)}
SELECT
    intDiv(toUnixTimestamp64Milli(run_start), {intervalMs:Int64}) * {intervalMs:Int64} AS bucket_ms,
    count() AS runs,
    countIf(${FACT_LOOPS_SQL}) AS looping
FROM scoped_runs
GROUP BY bucket_ms
ORDER BY bucket_ms`;
  }
  return `${loopChain(limits, 'flags')}
SELECT
    intDiv(toUnixTimestamp64Milli(run_start), {intervalMs:Int64}) * {intervalMs:Int64} AS bucket_ms,
    count() AS runs,
    countIf(notEmpty(dets)) AS looping
FROM run_loops
GROUP BY bucket_ms
ORDER BY bucket_ms`;
}

/** Runs and looping runs per interval of run start. */
export async function queryLoopRate(
  db: StoreDb,
  filter: AnalyticsFilter,
  prices: PriceTable,
  thresholds: LoopThresholds,
  intervalSeconds: number,
  medians?: readonly AgentStepMedian[],
): Promise<LoopRateBucket[]> {
  const { client } = db;
  const intervalMs = seriesIntervalMs(intervalSeconds);
  const result = await client.query({
    query: rateSql(medians === undefined ? 'inline' : 'bound', await useRunFacts(db.runFacts, filter, thresholds)),
    format: 'JSONEachRow',
    query_params: {
      ...filterParams(filter, prices),
      ...thresholdParams(thresholds),
      ...medianParams(medians),
      intervalMs,
    },
    clickhouse_settings: MATERIALIZED_CTE_SETTINGS,
  });
  const rows = await result.json<{ bucket_ms: Num; runs: Num; looping: Num }>();
  return rows.map((r) => ({ bucketStartMs: n(r.bucket_ms), runs: n(r.runs), loopingRuns: n(r.looping) }));
}

function loopingIdsSql(limits: AgentLimitsSource, facts: boolean): string {
  if (facts) {
    return `${factLoopsChain(limits)}
SELECT run_id FROM scoped_runs WHERE ${FACT_LOOPS_SQL} ORDER BY run_id`;
  }
  return `${loopChain(limits, 'flags')}
SELECT run_id FROM run_loops WHERE notEmpty(dets) ORDER BY run_id`;
}

/**
 * The ids of the filter's runs that loop, sorted: the runs queryRunLoopFlags
 * returns, without their kinds and waste (no evidence sliced, no step priced:
 * from the run facts this reads one row per run, like queryLoopRate).
 */
export async function queryLoopingRunIds(
  db: StoreDb,
  filter: AnalyticsFilter,
  prices: PriceTable,
  thresholds: LoopThresholds,
  medians?: readonly AgentStepMedian[],
): Promise<string[]> {
  const { client } = db;
  const result = await client.query({
    query: loopingIdsSql(
      medians === undefined ? 'inline' : 'bound',
      await useRunFacts(db.runFacts, filter, thresholds),
    ),
    format: 'JSONEachRow',
    query_params: { ...filterParams(filter, prices), ...thresholdParams(thresholds), ...medianParams(medians) },
    clickhouse_settings: MATERIALIZED_CTE_SETTINGS,
  });
  return (await result.json<{ run_id: string }>()).map((r) => r.run_id);
}

function flagsSql(chain: string): string {
  return `${chain},
${RUN_WASTE_CTE}
SELECT run_id, kinds, detections, wasted_ns, wasted_cost FROM run_waste ORDER BY run_id`;
}

/**
 * Loop flags of the filter's runs that loop. For a page of runs pass
 * `filter.runIds` and the agents' medians over the whole window
 * (queryAgentStepMedians), so runaway limits do not depend on the page.
 */
export async function queryRunLoopFlags(
  db: StoreDb,
  filter: AnalyticsFilter,
  prices: PriceTable,
  thresholds: LoopThresholds,
  medians?: readonly AgentStepMedian[],
): Promise<RunLoopFlag[]> {
  const { client } = db;
  const limits: AgentLimitsSource = medians === undefined ? 'inline' : 'bound';
  const facts = await useRunFacts(db.runFacts, filter, thresholds);
  const result = await client.query({
    query: flagsSql(facts ? factLoopChain(limits) : loopChain(limits, 'waste')),
    format: 'JSONEachRow',
    query_params: { ...filterParams(filter, prices), ...thresholdParams(thresholds), ...medianParams(medians) },
    clickhouse_settings: MATERIALIZED_CTE_SETTINGS,
  });
  const rows = await result.json<{
    run_id: string;
    kinds: string[];
    detections: Num;
    wasted_ns: Num;
    wasted_cost: Num;
  }>();
  const order = (k: string): number => LOOP_KINDS.indexOf(k as LoopKind);
  return rows.map((r) => ({
    runId: r.run_id,
    kinds: [...r.kinds].sort((a, b) => order(a) - order(b)) as LoopKind[],
    detections: n(r.detections),
    wastedNs: n(r.wasted_ns),
    wastedCostUsd: n(r.wasted_cost),
  }));
}

const MEDIANS_SELECT = `SELECT service, agent, toFloat64(quantileExact(0.5)(steps)) AS median_steps
FROM runs
WHERE outcome != 'incomplete'
GROUP BY service, agent
ORDER BY service, agent`;

/** Median steps per completed run of each agent (quantileExact(0.5): the upper median). */
export async function queryAgentStepMedians(
  db: StoreDb,
  filter: AnalyticsFilter,
  prices: PriceTable,
): Promise<AgentStepMedian[]> {
  const { client } = db;
  const source = (await useRunFacts(db.runFacts, filter))
    ? withClause(FACT_RUNS_CTE)
    : withClause(PRICED_SPANS_CTE, RUNS_CTE);
  const result = await client.query({
    query: `${source}\n${MEDIANS_SELECT}`,
    format: 'JSONEachRow',
    query_params: filterParams(filter, prices),
  });
  const rows = await result.json<{ service: string; agent: string; median_steps: Num }>();
  return rows.map((r) => ({ service: r.service, agent: r.agent, medianSteps: n(r.median_steps) }));
}

const STEPS_SQL = `${withClause(PRICED_SPANS_CTE)}
SELECT
    run_id, span_id, toString(toUnixTimestamp64Nano(start_time)) AS start_ns, step_kind AS kind,
    if(tool_name != '', tool_name, step_name) AS name, tool_args_hash, state_hash, output_hash, ok, duration_ns, toFloat64(cost) AS cost
FROM priced
WHERE step_kind NOT IN ('', 'run')
ORDER BY run_id, start_time, span_id`;

/** The step spans of the filter's runs (pass `filter.runIds`), for the TS detector's evidence. */
export async function queryLoopSteps(db: StoreDb, filter: AnalyticsFilter, prices: PriceTable): Promise<LoopStepRow[]> {
  const { client } = db;
  const result = await client.query({
    query: STEPS_SQL,
    format: 'JSONEachRow',
    query_params: filterParams(filter, prices),
  });
  const rows = await result.json<{
    run_id: string;
    span_id: string;
    start_ns: string;
    kind: string;
    name: string;
    tool_args_hash: string;
    state_hash: string;
    output_hash: string;
    ok: boolean | number;
    duration_ns: Num;
    cost: Num;
  }>();
  return rows.map((r) => ({
    runId: r.run_id,
    spanId: r.span_id,
    startNs: r.start_ns,
    kind: r.kind,
    name: r.name,
    argsHash: r.tool_args_hash,
    stateHash: r.state_hash,
    outputHash: r.output_hash,
    ok: r.ok === true || r.ok === 1,
    durationNs: n(r.duration_ns),
    costUsd: n(r.cost),
  }));
}
