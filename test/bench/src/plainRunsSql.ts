import { IS_ROOT, IS_STEP, RAW_COST, ROOT_KEY, SCOPE, USAGE_COUNTED, plainLedger } from './plainSqlParts.js';

/** The runs list's first phase: the page's run ids, newest first, and how many runs the window holds. */
export const PLAIN_RUN_PAGE_IDS = `SELECT run_id, count() OVER () AS total
FROM (SELECT run_id, min(start_time) AS run_start FROM spans WHERE ${SCOPE} GROUP BY run_id)
ORDER BY run_start DESC, run_id
LIMIT {limit:UInt32}`;

const PAGE = ' AND run_id IN {runIds:Array(String)}';

/** The second phase: the page's runs in full (root, outcome, duration, cost, usage, attempt groups). */
export const PLAIN_RUN_PAGE_ROWS = `WITH ${plainLedger([], '', PAGE)},
groups AS (SELECT run_id, sum(g_start) AS attempt_groups FROM ledger GROUP BY run_id)
SELECT p.run_id AS run_id, p.name AS name, p.outcome AS outcome, p.duration_ns AS duration_ns, p.steps AS steps, p.spans AS spans,
    p.cost AS cost, p.in_tok AS in_tok, p.unpriced AS unpriced, g.attempt_groups AS attempt_groups
FROM (
    SELECT run_id,
        countIf(${IS_ROOT}) > 0 AS completed,
        if(completed, argMaxIf(name, ${ROOT_KEY}, ${IS_ROOT}), argMin(name, start_time)) AS name,
        multiIf(NOT completed, 'incomplete',
            argMaxIf(status_code = 2 OR run_outcome = 'failure', ${ROOT_KEY}, ${IS_ROOT}), 'failure', 'success') AS outcome,
        if(completed, argMaxIf(duration_ns, ${ROOT_KEY}, ${IS_ROOT}), toUnixTimestamp64Nano(max(end_time)) - toUnixTimestamp64Nano(min(start_time))) AS duration_ns,
        countIf(${IS_STEP}) AS steps, count() AS spans,
        sum(if(isNaN(${RAW_COST} AS raw), 0, raw)) AS cost,
        sumIf(input_tokens, ${USAGE_COUNTED}) AS in_tok,
        countIf(${USAGE_COUNTED} AND isNaN(raw)) AS unpriced
    FROM spans WHERE ${SCOPE}${PAGE}
    GROUP BY run_id
) AS p
LEFT JOIN groups AS g ON g.run_id = p.run_id`;

/**
 * The sessions list: runs grouped by the session id of their earliest span
 * that names one (migration 0007), most recently active first, with run
 * count, cost and input tokens per session, and how many sessions there are.
 */
export const PLAIN_SESSIONS = `SELECT session_id, count() AS runs, sum(cost) AS cost, sum(in_tok) AS in_tok, count() OVER () AS total
FROM (
    SELECT run_id, min(start_time) AS run_start, argMinIf(session_id, start_time, session_id != '') AS session_id,
        sum(if(isNaN(${RAW_COST} AS raw), 0, raw)) AS cost, sumIf(input_tokens, ${USAGE_COUNTED}) AS in_tok
    FROM spans WHERE ${SCOPE}
    GROUP BY run_id
)
WHERE session_id != ''
GROUP BY session_id
ORDER BY max(run_start) DESC, session_id
LIMIT {limit:UInt32}`;
