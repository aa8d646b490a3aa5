import { IS_STEP, PLAIN_ROOTS, SCOPE } from './plainSqlParts.js';

/**
 * A lower bound for the loop and failure-cause queries, not a baseline: it
 * reads what any loop detector needs (each run's root, its step count, and
 * the time-ordered tool / plan / validate spans with their keys) and detects
 * nothing. A query within 2× of this is certainly within 2× of a real
 * hand-written detector; beyond 2×, the comparison says nothing.
 */
export const PLAIN_LOOP_INPUT = `WITH ${PLAIN_ROOTS},
seqs AS (
    SELECT run_id, countIf(${IS_STEP}) AS steps,
        arraySort(groupArrayIf((toUnixTimestamp64Nano(start_time), span_id, step_kind, tool_name, tool_args_hash, state_hash, output_hash, status_code, duration_ns),
                               step_kind IN ('tool', 'plan', 'validate'))) AS seq
    FROM spans WHERE ${SCOPE} AND ${IS_STEP}
    GROUP BY run_id
)
SELECT r.agent AS agent, count() AS runs, sum(s.steps) AS steps, sum(length(s.seq)) AS loop_steps
FROM seqs AS s INNER JOIN roots AS r ON r.run_id = s.run_id
GROUP BY agent`;
