import { PROTO_DB } from './prototypeSchema.js';

function price(m: string, array: string): string {
  return `transform(${m}, {models:Array(String)}, {${array}:Array(Float64)}, transform(replaceRegexpOne(${m}, '-(\\\\d{4}-\\\\d{2}-\\\\d{2}|\\\\d{8})$', ''), {models:Array(String)}, {${array}:Array(Float64)}, nan))`;
}

/** Cost of a run's table-priced usage: Σ over models of tokens × price (a model without a price counts 0, as unpriced). */
const TABLE_COST = `arraySum((m, i, c, o) -> if(isNaN((${price('m', 'pIn')} * i + ${price('m', 'pCached')} * c + ${price('m', 'pOut')} * o) AS v), 0, v), u.1, u.2, u.3, u.4)`;
const UNPRICED = `arraySum((m, n) -> if(isNaN(${price('m', 'pIn')} + ${price('m', 'pCached')} + ${price('m', 'pOut')}), n, 0), u.1, u.5)`;

/**
 * One row per run of the window from the rollup (runs whose first span
 * starts in the window; the store instead keeps a run's spans that start in
 * the window, which agrees whenever runs lie inside it): outcome, cost, usage
 * and attempt groups. Unnumbered step spans are grouped per run from the
 * rollup's arrays: sorted by (parent, start, span id), a span opens a group
 * when its parent or step name differs from the previous one's; a group
 * never succeeded when none of its spans is OK.
 */
export const ROLLUP_RUNS = `rolled AS (
    SELECT run_id,
        min(run_start) AS rs, max(run_end) AS re, any(any_service) AS svc, argMaxMerge(root) AS r,
        sum(span_count) AS spans, sum(steps) AS step_count, sum(explicit_cost) AS ec, sumMap(usage) AS u,
        sum(in_tok) AS input_tokens, sum(out_tok) AS output_tokens, sum(cached_tok) AS cached_input_tokens,
        sum(g_start) AS gs, sum(g_first_ok) AS gfo, sum(g_rec) AS grec,
        arraySort(groupArrayMerge(unnumbered)) AS un
    FROM ${PROTO_DB}.run_rollup
    WHERE project_id = {projectId:String}
    GROUP BY run_id
    HAVING rs >= {from:DateTime64(9, 'UTC')} AND rs < {to:DateTime64(9, 'UTC')}
),
unnumbered AS (
    SELECT *,
        arraySplit((x, p, i) -> i = 1 OR x.1 != p.1 OR x.4 != p.4, un, arrayPopBack(arrayPushFront(un, un[1])), arrayEnumerate(un)) AS un_groups
    FROM rolled
),
runs AS (
    SELECT run_id,
        r.1 > 0 AS completed,
        if(completed, r.2, '') AS agent,
        if(completed, r.3, svc) AS service,
        multiIf(NOT completed, 'incomplete', r.4 = 2 OR r.5 = 'failure', 'failure', 'success') AS outcome,
        rs AS run_start,
        if(completed, r.7, toUnixTimestamp64Nano(re) - toUnixTimestamp64Nano(rs)) AS duration_ns,
        ec + ${TABLE_COST} AS cost,
        ${UNPRICED} AS unpriced_spans,
        spans, step_count, input_tokens, output_tokens, cached_input_tokens,
        gs + length(un_groups) AS groups,
        gs - gfo - grec + arrayCount(g -> NOT arrayExists(x -> x.5, g), un_groups) AS never_ok
    FROM unnumbered
)`;

/** Compounding curve from the rollup. */
export const PROTO_CURVE = `WITH ${ROLLUP_RUNS}
SELECT groups, count() AS runs, countIf(outcome = 'success') AS success
FROM runs WHERE outcome != 'incomplete'
GROUP BY groups ORDER BY groups`;

/** Reliability's agent table from the rollup. */
export const PROTO_AGENT_RUNS = `WITH ${ROLLUP_RUNS}
SELECT agent, service,
    countIf(outcome = 'success') AS success, countIf(outcome = 'failure') AS failure, countIf(outcome = 'incomplete') AS incomplete,
    countIf(outcome = 'failure' AND never_ok > 0) AS step_explained,
    countIf(outcome = 'failure' AND never_ok = 0) AS seam,
    countIf(outcome = 'success' AND never_ok > 0) AS fallback
FROM runs GROUP BY agent, service`;

const LEVELS = [0.5, 0.95, 0.99].map((p) => (p - 1e-12).toFixed(12)).join(', ');

/** The cost summary's run part from the rollup. */
export const PROTO_RUN_COST = `WITH ${ROLLUP_RUNS}
SELECT count() AS runs,
    countIf(outcome = 'success') AS success_runs, countIf(outcome = 'failure') AS failure_runs, countIf(outcome = 'incomplete') AS incomplete_runs,
    sum(cost) AS total, sumIf(cost, outcome = 'success') AS success_cost, sumIf(cost, outcome = 'failure') AS failure_cost,
    sumIf(cost, outcome = 'incomplete') AS incomplete_cost,
    avgIf(cost, completed) AS mean_cost,
    quantilesExactIf(${LEVELS})(cost, completed) AS q, q[1] AS p50, q[2] AS p95, q[3] AS p99,
    maxIf(cost, completed) AS max_cost,
    sum(input_tokens) AS input_tokens, sum(output_tokens) AS output_tokens, sum(cached_input_tokens) AS cached_input_tokens, sum(unpriced_spans) AS unpriced_spans
FROM runs`;

/** The cost series from the rollup. */
export const PROTO_COST_SERIES = `WITH ${ROLLUP_RUNS}
SELECT intDiv(toUnixTimestamp64Milli(run_start), {intervalMs:Int64}) * {intervalMs:Int64} AS bucket_ms,
    count() AS runs, countIf(completed) AS completed_runs, sum(cost) AS total, sumIf(cost, outcome = 'failure') AS failure_cost,
    avgIf(cost, completed) AS mean_cost,
    quantilesExactIf(${[0.5, 0.95].map((p) => (p - 1e-12).toFixed(12)).join(', ')})(cost, completed) AS q, q[1] AS p50, q[2] AS p95,
    maxIf(cost, completed) AS max_cost
FROM runs GROUP BY bucket_ms`;

/** The runs list's first page (and total) from the rollup, in one query. */
export const PROTO_RUN_PAGE = `WITH ${ROLLUP_RUNS}
SELECT run_id, count() OVER () AS total, duration_ns, step_count AS steps, spans, cost, input_tokens AS in_tok, unpriced_spans AS unpriced, groups AS attempt_groups
FROM runs
ORDER BY run_start DESC, run_id
LIMIT {limit:UInt32}`;
