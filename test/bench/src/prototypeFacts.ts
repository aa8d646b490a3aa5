import { PLAIN_ROOTS, RAW_COST, SCOPE, plainLedger } from './plainSqlParts.js';
import { PROTO_DB } from './prototypeSchema.js';

/**
 * Prototype "run facts, finalised once per completed run": what today's
 * queries recompute from every span on every request (attempt groups with the
 * window-function ledger, outcomes) is computed once per run and stored; the
 * overview then aggregates tens of thousands of rows. Here the finaliser is
 * one INSERT … SELECT over the window (timed: its cost per run is what a
 * background job would pay once); a real one would take the runs whose root
 * arrived since its last tick, and redo a run when late spans come.
 */
export const RUN_FACTS_DDL = `CREATE TABLE IF NOT EXISTS ${PROTO_DB}.run_facts
(
    project_id LowCardinality(String),
    run_id String,
    run_start DateTime64(9, 'UTC'),
    agent String,
    service String,
    outcome LowCardinality(String),
    groups UInt64,
    never_ok UInt64
)
ENGINE = MergeTree
ORDER BY (project_id, run_start, run_id)`;

export const RUN_STEP_FACTS_DDL = `CREATE TABLE IF NOT EXISTS ${PROTO_DB}.run_step_facts
(
    project_id LowCardinality(String),
    run_id String,
    run_start DateTime64(9, 'UTC'),
    agent String,
    service String,
    failed Bool,
    step_name String,
    groups UInt64,
    first_ok UInt64,
    recovered UInt64,
    attempts UInt64,
    ok_attempts UInt64,
    retry_ns Int64,
    retry_cost Float64
)
ENGINE = MergeTree
ORDER BY (project_id, run_start, run_id, step_name)`;

const RETRY_COST = `, if(g_start, 0, if(isNaN(${RAW_COST} AS c), 0, c)) AS retry_cost`;
const COST_COLS = ['cost_usd', 'input_tokens', 'output_tokens', 'cached_input_tokens', 'model'];

/** The finaliser for step facts (completed runs). */
export const FILL_RUN_STEP_FACTS = `INSERT INTO ${PROTO_DB}.run_step_facts
WITH ${PLAIN_ROOTS}, ${plainLedger(COST_COLS, RETRY_COST)}
SELECT {projectId:String}, l.run_id, any(r.root_start), any(r.agent), any(r.service), any(r.failed), l.step_name,
    sum(l.g_start), sum(l.g_first_ok), sum(l.g_rec), count(), countIf(l.ok), sumIf(l.duration_ns, NOT l.g_start), sum(l.retry_cost)
FROM ledger AS l
INNER JOIN roots AS r ON r.run_id = l.run_id
GROUP BY l.run_id, l.step_name`;

/** The finaliser for run facts (every run, incomplete ones too). */
export const FILL_RUN_FACTS = `INSERT INTO ${PROTO_DB}.run_facts
WITH ${PLAIN_ROOTS}, ${plainLedger(['service_name'], ', service_name')},
run_groups AS (
    SELECT run_id, any(service_name) AS any_service, sum(g_start) AS groups, sum(g_start) - sum(g_first_ok) - sum(g_rec) AS never_ok
    FROM ledger GROUP BY run_id
),
starts AS (SELECT run_id, min(start_time) AS run_start FROM spans WHERE ${SCOPE} GROUP BY run_id)
SELECT {projectId:String}, s.run_id, s.run_start,
    if(r.run_id != '', r.agent, ''), if(r.run_id != '', r.service, g.any_service),
    multiIf(r.run_id = '', 'incomplete', r.failed, 'failure', 'success'), g.groups, g.never_ok
FROM starts AS s
LEFT JOIN run_groups AS g ON g.run_id = s.run_id
LEFT JOIN roots AS r ON r.run_id = s.run_id`;

const WINDOW = `project_id = {projectId:String} AND run_start >= {from:DateTime64(9, 'UTC')} AND run_start < {to:DateTime64(9, 'UTC')}`;

/** Reliability's step table from the step facts. */
export const FACTS_STEP_STATS = `SELECT agent, service, step_name,
    sum(g) AS groups, sumIf(g, NOT failed) AS groups_in_success, sum(fo) AS first_ok, sum(rec) AS recovered,
    sum(n) AS attempts, sum(ok) AS ok_attempts, sum(rns) AS retry_extra_ns, sum(rc) AS retry_extra_cost
FROM (
    SELECT agent, service, step_name, failed, groups AS g, first_ok AS fo, recovered AS rec, attempts AS n, ok_attempts AS ok, retry_ns AS rns, retry_cost AS rc
    FROM ${PROTO_DB}.run_step_facts
    WHERE ${WINDOW}
)
GROUP BY agent, service, step_name`;

/** Reliability's agent table from the run facts. */
export const FACTS_AGENT_RUNS = `SELECT agent, service,
    countIf(outcome = 'success') AS success, countIf(outcome = 'failure') AS failure, countIf(outcome = 'incomplete') AS incomplete,
    countIf(outcome = 'failure' AND never_ok > 0) AS step_explained, countIf(outcome = 'failure' AND never_ok = 0) AS seam,
    countIf(outcome = 'success' AND never_ok > 0) AS fallback
FROM ${PROTO_DB}.run_facts
WHERE ${WINDOW}
GROUP BY agent, service`;

/** The compounding curve from the run facts. */
export const FACTS_CURVE = `SELECT groups, count() AS runs, countIf(outcome = 'success') AS success
FROM ${PROTO_DB}.run_facts
WHERE ${WINDOW} AND outcome != 'incomplete'
GROUP BY groups ORDER BY groups`;

/** Loop flags of each looping run, as the finaliser stored them (from today's per-run loop query). */
export const RUN_LOOP_FACTS_DDL = `CREATE TABLE IF NOT EXISTS ${PROTO_DB}.run_loop_facts
(
    project_id LowCardinality(String),
    run_id String,
    kinds Array(String),
    detections UInt32,
    wasted_ns Int64,
    wasted_cost Float64
)
ENGINE = MergeTree
ORDER BY (project_id, run_id)`;

/** The primary cause of each failed run, as the finaliser stored it. */
export const RUN_CAUSE_FACTS_DDL = `CREATE TABLE IF NOT EXISTS ${PROTO_DB}.run_cause_facts
(
    project_id LowCardinality(String),
    run_id String,
    cause LowCardinality(String)
)
ENGINE = MergeTree
ORDER BY (project_id, run_id)`;

/** Runs and looping runs per interval of run start, from the facts. */
export const FACTS_LOOP_RATE = `SELECT intDiv(toUnixTimestamp64Milli(f.run_start), {intervalMs:Int64}) * {intervalMs:Int64} AS bucket_ms,
    count() AS runs, countIf(l.run_id != '') AS looping
FROM (SELECT run_id, run_start FROM ${PROTO_DB}.run_facts WHERE ${WINDOW}) AS f
LEFT JOIN (SELECT run_id FROM ${PROTO_DB}.run_loop_facts WHERE project_id = {projectId:String}) AS l ON l.run_id = f.run_id
GROUP BY bucket_ms ORDER BY bucket_ms`;

/** Failed runs per primary cause, from the facts. */
export const FACTS_FAILURES = `SELECT c.cause AS cause, count() AS runs
FROM (SELECT run_id, cause FROM ${PROTO_DB}.run_cause_facts WHERE project_id = {projectId:String}) AS c
INNER JOIN (SELECT run_id FROM ${PROTO_DB}.run_facts WHERE ${WINDOW}) AS f ON f.run_id = c.run_id
GROUP BY cause`;
