import type { StoreDb } from '../StoreDb.js';
import type { AnalyticsFilter, PriceTable } from './AnalyticsFilter.js';
import { FACT_RUNS_CTE } from '../facts/factsSql.js';
import { useRunFacts } from '../facts/useRunFacts.js';
import { PRICED_SPANS_CTE, RUNS_CTE, filterParams, priceOf, withClause } from '../sql/sqlParts.js';
import { type CostGroupBy, seriesIntervalMs } from '@telltale/semconv';
import { rollupCostGroupRows } from './rollupQueries.js';

/** The run-cost percentile levels, in the order of `p50Usd`, `p95Usd`, `p99Usd`. */
export const COST_PERCENTILE_LEVELS = [0.5, 0.95, 0.99] as const;

/**
 * Exact nearest-rank percentiles over completed runs (`If` combinator): the
 * value at 1-based rank ⌈p·n⌉ of the sorted values, the definition latency
 * uses (see EXACT_QUANTILES_SQL in latencySql.ts for why level p − 1e-12 makes
 * `quantileExact` give exactly that rank).
 */
function nearestRankQuantilesIf(levels: readonly number[]): string {
  return `quantilesExactIf(${levels.map((p) => (p - 1e-12).toFixed(12)).join(', ')})`;
}

/** Run cost totals and the distribution over completed runs. */
export interface RunCostStats {
  runs: number;
  successRuns: number;
  failureRuns: number;
  incompleteRuns: number;
  /** Cost of every kept run, incomplete ones included. */
  totalUsd: number;
  successUsd: number;
  failureUsd: number;
  incompleteUsd: number;
  /** Over completed runs (success + failure); 0 when there are none. */
  meanUsd: number;
  p50Usd: number;
  p95Usd: number;
  p99Usd: number;
  maxUsd: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  unpricedSpans: number;
}

/** Usage that no price covers, by model ('' = the span names no model). */
export interface UnpricedUsage {
  model: string;
  spans: number;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
}

/** Cost of the matching spans of one step name, tool or model. */
export interface CostGroup {
  /** The step name, tool name or model; '' gathers spans without one. */
  key: string;
  costUsd: number;
  /** Matching non-aggregate spans in the group. */
  calls: number;
  /** Spans with tokens or a non-zero cost. */
  billedCalls: number;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  unpricedSpans: number;
}

/** One interval of the cost series, by run start. */
export interface CostBucket {
  /** Bucket start, ms since the epoch (buckets align to the epoch, as latency's do). */
  bucketStartMs: number;
  runs: number;
  completedRuns: number;
  totalUsd: number;
  failureUsd: number;
  meanUsd: number;
  p50Usd: number;
  p95Usd: number;
  maxUsd: number;
}

type Num = number | string;
const n = (v: Num | undefined): number => Number(v ?? 0);
const q = (v: readonly Num[] | undefined, i: number): number => n(v?.[i]);

/** The `runs` CTE of run-level cost queries: from the run facts when the filter allows, else from the spans. */
async function runsSource(db: StoreDb, filter: AnalyticsFilter): Promise<string> {
  return (await useRunFacts(db.runFacts, filter)) ? withClause(FACT_RUNS_CTE) : withClause(PRICED_SPANS_CTE, RUNS_CTE);
}

const RUN_COST_SELECT = `SELECT
    count() AS runs,
    countIf(outcome = 'success') AS success_runs,
    countIf(outcome = 'failure') AS failure_runs,
    countIf(outcome = 'incomplete') AS incomplete_runs,
    sum(run_cost) AS total,
    sumIf(run_cost, outcome = 'success') AS success_cost,
    sumIf(run_cost, outcome = 'failure') AS failure_cost,
    sumIf(run_cost, outcome = 'incomplete') AS incomplete_cost,
    if(countIf(outcome != 'incomplete') = 0, 0, avgIf(run_cost, outcome != 'incomplete')) AS mean_cost,
    if(countIf(outcome != 'incomplete') = 0, [0, 0, 0], ${nearestRankQuantilesIf(COST_PERCENTILE_LEVELS)}(run_cost, outcome != 'incomplete')) AS quantiles,
    maxIf(run_cost, outcome != 'incomplete') AS max_cost,
    sum(run_input_tokens) AS input_tokens,
    sum(run_output_tokens) AS output_tokens,
    sum(run_cached_input_tokens) AS cached_input_tokens,
    sum(unpriced_spans) AS unpriced_spans
FROM runs`;

/**
 * Span-level cost queries read the matching spans; run-level filters
 * (service, agent) only bite through the runs CTE, so it is joined in (as a
 * semi-join) only when one is set: without them every matching span belongs to
 * a kept run.
 */
function spanScope(filter: AnalyticsFilter): { ctes: string; where: string } {
  const runScoped = (filter.service ?? '') !== '' || (filter.agent ?? '') !== '';
  return runScoped
    ? {
        ctes: withClause(PRICED_SPANS_CTE, RUNS_CTE),
        where: 'span_match AND usage_counted AND run_id IN (SELECT run_id FROM runs)',
      }
    : { ctes: withClause(PRICED_SPANS_CTE), where: 'span_match AND usage_counted' };
}

const GROUP_KEY_SQL: Readonly<Record<CostGroupBy, string>> = { step: 'step_name', tool: 'tool_name', model: 'model' };

function breakdownSql(filter: AnalyticsFilter, groupBy: CostGroupBy): string {
  const { ctes, where } = spanScope(filter);
  return `${ctes}
SELECT
    ${GROUP_KEY_SQL[groupBy]} AS key,
    sum(cost) AS cost_sum,
    count() AS calls,
    countIf(input_tokens + output_tokens > 0 OR cost > 0) AS billed_calls,
    sum(input_tokens) AS in_tok,
    sum(least(cached_input_tokens, input_tokens)) AS cached_tok,
    sum(output_tokens) AS out_tok,
    countIf(unpriced) AS unpriced_spans
FROM priced
WHERE ${where}
GROUP BY key
HAVING key != '' OR cost_sum > 0 OR billed_calls > 0
ORDER BY cost_sum DESC, key`;
}

/** Unpriced usage from the run facts' usage arrays. */
const FACT_UNPRICED_SQL = `${withClause(FACT_RUNS_CTE)}
SELECT
    model,
    sum(n) AS spans,
    sum(i + c) AS in_tok,
    sum(c) AS cached_tok,
    sum(o) AS out_tok
FROM runs
ARRAY JOIN usage_models AS model, usage_uncached AS i, usage_cached AS c, usage_output AS o, usage_spans AS n
WHERE isNaN(${priceOf('priceInput', 'model')})
GROUP BY model
ORDER BY in_tok + out_tok DESC, model`;

/**
 * Unpriced usage itemises RunCostStats' `unpricedSpans`: the spans of the kept
 * runs (whole runs, as for the run costs), so with any filter set the runs CTE
 * selects them.
 */
function unpricedSql(filter: AnalyticsFilter, facts: boolean): string {
  if (facts) return FACT_UNPRICED_SQL;
  const filtered =
    [filter.service, filter.agent, filter.stepName, filter.tool, filter.model].some((v) => (v ?? '') !== '') ||
    Object.keys(filter.attributes ?? {}).length > 0;
  const { ctes, where } = filtered
    ? { ctes: withClause(PRICED_SPANS_CTE, RUNS_CTE), where: 'usage_counted AND run_id IN (SELECT run_id FROM runs)' }
    : { ctes: withClause(PRICED_SPANS_CTE), where: 'usage_counted' };
  return `${ctes}
SELECT
    model,
    count() AS spans,
    sum(input_tokens) AS in_tok,
    sum(least(cached_input_tokens, input_tokens)) AS cached_tok,
    sum(output_tokens) AS out_tok
FROM priced
WHERE ${where} AND unpriced
GROUP BY model
ORDER BY in_tok + out_tok DESC, model`;
}

const SERIES_SELECT = `SELECT
    intDiv(toUnixTimestamp64Milli(run_start), {intervalMs:Int64}) * {intervalMs:Int64} AS bucket_ms,
    count() AS runs,
    countIf(outcome != 'incomplete') AS completed,
    sum(run_cost) AS total,
    sumIf(run_cost, outcome = 'failure') AS failure_cost,
    if(completed = 0, 0, avgIf(run_cost, outcome != 'incomplete')) AS mean_cost,
    if(completed = 0, [0, 0], ${nearestRankQuantilesIf([0.5, 0.95])}(run_cost, outcome != 'incomplete')) AS quantiles,
    maxIf(run_cost, outcome != 'incomplete') AS max_cost
FROM runs
GROUP BY bucket_ms
ORDER BY bucket_ms`;

export async function queryRunCostStats(
  db: StoreDb,
  filter: AnalyticsFilter,
  prices: PriceTable,
): Promise<RunCostStats> {
  const { client } = db;
  const result = await client.query({
    query: `${await runsSource(db, filter)}\n${RUN_COST_SELECT}`,
    format: 'JSONEachRow',
    query_params: filterParams(filter, prices),
  });
  const [r] = await result.json<Record<string, Num> & { quantiles: Num[] }>();
  return {
    runs: n(r?.runs),
    successRuns: n(r?.success_runs),
    failureRuns: n(r?.failure_runs),
    incompleteRuns: n(r?.incomplete_runs),
    totalUsd: n(r?.total),
    successUsd: n(r?.success_cost),
    failureUsd: n(r?.failure_cost),
    incompleteUsd: n(r?.incomplete_cost),
    meanUsd: n(r?.mean_cost),
    p50Usd: q(r?.quantiles, 0),
    p95Usd: q(r?.quantiles, 1),
    p99Usd: q(r?.quantiles, 2),
    maxUsd: n(r?.max_cost),
    inputTokens: n(r?.input_tokens),
    outputTokens: n(r?.output_tokens),
    cachedInputTokens: n(r?.cached_input_tokens),
    unpricedSpans: n(r?.unpriced_spans),
  };
}

export async function queryCostGroups(
  db: StoreDb,
  filter: AnalyticsFilter,
  prices: PriceTable,
  groupBy: CostGroupBy,
): Promise<CostGroup[]> {
  const { client } = db;
  const rows =
    ((await rollupCostGroupRows(db, filter, prices, groupBy)) as
      Array<Record<string, Num> & { key: string }> | undefined) ??
    (await (
      await client.query({
        query: breakdownSql(filter, groupBy),
        format: 'JSONEachRow',
        query_params: filterParams(filter, prices),
      })
    ).json<Record<string, Num> & { key: string }>());
  return rows.map((r) => ({
    key: r.key,
    costUsd: n(r.cost_sum),
    calls: n(r.calls),
    billedCalls: n(r.billed_calls),
    inputTokens: n(r.in_tok),
    cachedInputTokens: n(r.cached_tok),
    outputTokens: n(r.out_tok),
    unpricedSpans: n(r.unpriced_spans),
  }));
}

export async function queryUnpricedUsage(
  db: StoreDb,
  filter: AnalyticsFilter,
  prices: PriceTable,
): Promise<UnpricedUsage[]> {
  const { client } = db;
  const result = await client.query({
    query: unpricedSql(filter, await useRunFacts(db.runFacts, filter)),
    format: 'JSONEachRow',
    query_params: filterParams(filter, prices),
  });
  const rows = await result.json<Record<string, Num> & { model: string }>();
  return rows.map((r) => ({
    model: r.model,
    spans: n(r.spans),
    inputTokens: n(r.in_tok),
    cachedInputTokens: n(r.cached_tok),
    outputTokens: n(r.out_tok),
  }));
}

/** Cost per interval of run start; intervals without runs are absent. */
export async function queryCostSeries(
  db: StoreDb,
  filter: AnalyticsFilter,
  prices: PriceTable,
  intervalSeconds: number,
): Promise<CostBucket[]> {
  const { client } = db;
  const intervalMs = seriesIntervalMs(intervalSeconds);
  const result = await client.query({
    query: `${await runsSource(db, filter)}\n${SERIES_SELECT}`,
    format: 'JSONEachRow',
    query_params: { ...filterParams(filter, prices), intervalMs },
  });
  const rows = await result.json<Record<string, Num> & { quantiles: Num[] }>();
  return rows.map((r) => ({
    bucketStartMs: n(r.bucket_ms),
    runs: n(r.runs),
    completedRuns: n(r.completed),
    totalUsd: n(r.total),
    failureUsd: n(r.failure_cost),
    meanUsd: n(r.mean_cost),
    p50Usd: q(r.quantiles, 0),
    p95Usd: q(r.quantiles, 1),
    maxUsd: n(r.max_cost),
  }));
}
