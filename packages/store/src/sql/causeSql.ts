import { loopArrayColumns } from './loopSql.js';

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
