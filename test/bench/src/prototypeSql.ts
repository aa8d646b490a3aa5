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
export function rollupRuns(where = ''): string {
  return `rolled AS (
    SELECT run_id,
        min(run_start) AS rs, max(run_end) AS re, any(any_service) AS svc, argMaxMerge(root) AS r,
        sum(span_count) AS spans, sum(steps) AS step_count, sum(explicit_cost) AS ec, sumMap(usage) AS u,
        sum(in_tok) AS input_tokens, sum(out_tok) AS output_tokens, sum(cached_tok) AS cached_input_tokens,
        sum(g_start) AS gs, sum(g_first_ok) AS gfo, sum(g_rec) AS grec,
        arraySort(groupArrayMerge(unnumbered)) AS un
    FROM ${PROTO_DB}.run_rollup
    WHERE project_id = {projectId:String}${where}
    GROUP BY run_id
    HAVING rs >= {from:DateTime64(9, 'UTC')} AND rs < {to:DateTime64(9, 'UTC')}
),
split_runs AS (
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
        un_groups,
        gs + length(un_groups) AS groups,
        gs - gfo - grec + arrayCount(g -> NOT arrayExists(x -> x.5, g), un_groups) AS never_ok
    FROM split_runs
)`;
}

export const ROLLUP_RUNS = rollupRuns();

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

/** The runs list's first page (and total) from the rollup: the page's ids from run starts alone, then those runs in full. */
export const PROTO_RUN_PAGE = `WITH page AS (
    SELECT run_id, rs, count() OVER () AS total
    FROM (
        SELECT run_id, min(run_start) AS rs FROM ${PROTO_DB}.run_rollup WHERE project_id = {projectId:String} GROUP BY run_id
        HAVING rs >= {from:DateTime64(9, 'UTC')} AND rs < {to:DateTime64(9, 'UTC')}
    )
    ORDER BY rs DESC, run_id
    LIMIT {limit:UInt32}
),
${rollupRuns(' AND run_id IN (SELECT run_id FROM page)')}
SELECT r.run_id AS run_id, p.total AS total, duration_ns, step_count AS steps, spans, cost, input_tokens AS in_tok, unpriced_spans AS unpriced, groups AS attempt_groups
FROM runs AS r INNER JOIN page AS p ON p.run_id = r.run_id
ORDER BY r.run_start DESC, r.run_id`;

/** Cost of one unnumbered span of the rollup's arrays (explicit, else its tokens at the table's prices; NaN-free). */
const UNNUMBERED_SPAN_COST = `if(x.7 = 'handoff', 0, ifNull(x.8, if(x.10 + x.11 + x.12 = 0, 0,
    if(isNaN((${price('x.9', 'pIn')} * x.10 + ${price('x.9', 'pCached')} * x.11 + ${price('x.9', 'pOut')} * x.12) AS v), 0, v))))`;

/**
 * Reliability's step table from the rollups: numbered attempts from the
 * (run, step) rollup joined with the runs (tens of thousands of rows on each
 * side, not millions of spans), unnumbered ones from the run rollup's arrays
 * (one row per attempt group).
 */
export const PROTO_STEP_STATS = `WITH ${ROLLUP_RUNS.replace('runs AS (', 'runs AS MATERIALIZED (')},
numbered AS (
    SELECT r.agent AS agent, r.service AS service, s.step_name AS step_name, r.outcome AS outcome,
        s.gs AS g_n, s.gfo AS g_first_ok, s.grec AS g_recovered, s.n AS g_attempts, s.ok AS g_ok_attempts, s.rns AS g_retry_ns,
        s.rec + arraySum((m, i, c, o) -> if(isNaN((${price('m', 'pIn')} * i + ${price('m', 'pCached')} * c + ${price('m', 'pOut')} * o) AS v), 0, v), s.ru.1, s.ru.2, s.ru.3, s.ru.4) AS g_retry_cost
    FROM (
        SELECT run_id, step_name, sum(g_start) AS gs, sum(g_first_ok) AS gfo, sum(g_rec) AS grec, sum(attempts) AS n, sum(ok_attempts) AS ok,
            sum(retry_ns) AS rns, sum(retry_explicit_cost) AS rec, sumMap(retry_usage) AS ru
        FROM ${PROTO_DB}.run_step_rollup WHERE project_id = {projectId:String}
        GROUP BY run_id, step_name
    ) AS s
    INNER JOIN (SELECT run_id, agent, service, outcome FROM runs WHERE completed) AS r ON r.run_id = s.run_id
),
unnumbered_groups AS (
    SELECT agent, service, g[1].4 AS step_name, outcome,
        1 AS g_n, g[1].5 AS g_first_ok, NOT g_first_ok AND arrayExists(x -> x.5, g) AS g_recovered,
        length(g) AS g_attempts, arrayCount(x -> x.5, g) AS g_ok_attempts,
        arraySum(x -> x.6, arrayPopFront(g)) AS g_retry_ns,
        arraySum(x -> ${UNNUMBERED_SPAN_COST}, arrayPopFront(g)) AS g_retry_cost
    FROM (SELECT agent, service, outcome, un_groups FROM runs WHERE completed)
    ARRAY JOIN un_groups AS g
)
SELECT agent, service, step_name,
    sum(g_n) AS groups, sumIf(g_n, outcome = 'success') AS groups_in_success, sum(g_first_ok) AS first_ok, sum(g_recovered) AS recovered,
    sum(g_attempts) AS attempts, sum(g_ok_attempts) AS ok_attempts, sum(g_retry_ns) AS retry_extra_ns, sum(g_retry_cost) AS retry_extra_cost
FROM (
    SELECT agent, service, step_name, outcome, g_n, g_first_ok, g_recovered, g_attempts, g_ok_attempts, g_retry_ns, g_retry_cost FROM numbered
    UNION ALL
    SELECT agent, service, step_name, outcome, g_n, g_first_ok, g_recovered, g_attempts, g_ok_attempts, g_retry_ns, g_retry_cost FROM unnumbered_groups
)
GROUP BY agent, service, step_name
SETTINGS enable_materialized_cte = 1`;
