import { PLAIN_ROOTS, RAW_COST, plainLedger } from './plainSqlParts.js';

const RETRY_COST = `, if(g_start, 0, if(isNaN(${RAW_COST} AS c), 0, c)) AS retry_cost`;
const COST_COLS = ['cost_usd', 'input_tokens', 'output_tokens', 'cached_input_tokens', 'model'];

/** Attempt-group counts per (agent, service, step) over completed runs: reliability's step table. */
export const PLAIN_STEP_STATS = `WITH ${PLAIN_ROOTS}, ${plainLedger(COST_COLS, RETRY_COST)}
SELECT r.agent AS agent, r.service AS service, l.step_name AS step_name,
    sum(l.g_start) AS groups,
    sumIf(l.g_start, NOT r.failed) AS groups_in_success,
    sum(l.g_first_ok) AS first_ok,
    sum(l.g_rec) AS recovered,
    count() AS attempts,
    countIf(l.ok) AS ok_attempts,
    sumIf(l.duration_ns, NOT l.g_start) AS retry_extra_ns,
    sum(l.retry_cost) AS retry_extra_cost
FROM ledger AS l
INNER JOIN roots AS r ON r.run_id = l.run_id
GROUP BY agent, service, step_name`;

/**
 * Every run of the window: its root (if any) and its never-OK groups. Runs
 * are the union of those with a root and those with steps (each run of the
 * dataset has steps; a run with neither would be missed, and none exists).
 */
const PLAIN_RUN_OUTCOMES = `${PLAIN_ROOTS}, ${plainLedger(['service_name'], ', service_name')},
run_groups AS (
    SELECT run_id, any(service_name) AS any_service, sum(g_start) AS groups, sum(g_start) - sum(g_first_ok) - sum(g_rec) AS never_ok
    FROM ledger GROUP BY run_id
),
runs AS (
    SELECT if(r.run_id != '', r.agent, '') AS agent, if(r.run_id != '', r.service, g.any_service) AS service,
        multiIf(r.run_id = '', 'incomplete', r.failed, 'failure', 'success') AS outcome,
        g.groups AS groups, g.never_ok AS never_ok
    FROM run_groups AS g
    FULL OUTER JOIN roots AS r ON r.run_id = g.run_id
)`;

/** Run outcome counts and the gap decomposition per agent: reliability's agent table. */
export const PLAIN_AGENT_RUNS = `WITH ${PLAIN_RUN_OUTCOMES}
SELECT agent, service,
    countIf(outcome = 'success') AS success,
    countIf(outcome = 'failure') AS failure,
    countIf(outcome = 'incomplete') AS incomplete,
    countIf(outcome = 'failure' AND never_ok > 0) AS step_explained,
    countIf(outcome = 'failure' AND never_ok = 0) AS seam,
    countIf(outcome = 'success' AND never_ok > 0) AS fallback
FROM runs
GROUP BY agent, service`;

/** Observed success of completed runs by their number of attempt groups: the compounding curve. */
export const PLAIN_CURVE = `WITH ${PLAIN_ROOTS}, ${plainLedger()},
run_groups AS (SELECT run_id, sum(g_start) AS groups FROM ledger GROUP BY run_id)
SELECT g.groups AS groups, count() AS runs, countIf(NOT r.failed) AS success
FROM roots AS r
LEFT JOIN run_groups AS g ON g.run_id = r.run_id
GROUP BY groups
ORDER BY groups`;
