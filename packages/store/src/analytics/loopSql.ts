/**
 * SQL fragments of loop detection (RELIABILITY-MATH "Loops and no progress").
 * Every value a user controls is a bound parameter; these strings only vary
 * by which fixed fragments a query includes.
 *
 * The plan, for millions of spans:
 * 1. `run_set` (materialised: computed once however often it is read): the
 *    kept runs of the filter with agent, outcome and step count.
 * 2. `agent_limits`: each agent's median steps per completed run
 *    (quantileExact(0.5), the upper median), from `run_set` or from bound
 *    arrays when the query is restricted to a few runs.
 * 3. `scoped_runs` (materialised): the runs a query looks at, with their
 *    runaway limit max(multiplier × median, hard cap).
 * 4. One GROUP BY run over the tool / plan / validate spans collects parallel
 *    numeric arrays (start, span key, kind+status, two UInt64 keys, duration,
 *    cost); per run, array functions sort them once and find repeated actions
 *    and repeated states (sort by key, split into equal-key groups), failed
 *    validation streaks and ping-pong alternations (split the time-ordered
 *    sequence where the rule breaks). No lambda captures a per-run array, so
 *    the work stays linear in the run's length.
 * 5. Runaway: runs with more steps than their limit (a GROUP BY over the
 *    materialised counts), then one pass over those runs' steps for the
 *    steps beyond the limit.
 *
 * A detection is a tuple (variant code, key1, key2, count, anchor start,
 * anchor span key, wasted spans) where each wasted span is (start, span key,
 * duration, cost): the same span has the same tuple in every detection, so
 * `arrayDistinct` over detections counts each wasted span once.
 */

/** 1 tool_args, 2 state_hash, 3 failed_validation, 4 alternation, 5 step_count. */
export const VARIANT_OF_CODE_SQL = `['tool_args', 'state_hash', 'failed_validation', 'alternation', 'step_count']`;
export const KIND_OF_CODE_SQL = `['repeated_action', 'no_progress', 'no_progress', 'ping_pong', 'runaway']`;

/** Span ids are 16 hex digits: as a number they order like the text. */
const SPAN_KEY = 'reinterpretAsUInt64(reverse(unhex(span_id)))';
const TOOL_NAME = "if(tool_name != '', tool_name, step_name)";
const START_NS = 'toUnixTimestamp64Nano(start_time)';

/** Which runs a query looks at (allowlisted conditions). */
export const RUN_SCOPES = { all: '1', failed: "outcome = 'failure'" } as const;
export type RunScope = keyof typeof RUN_SCOPES;

/**
 * Each run's agent median: a window over the kept runs (completed runs of
 * the same service and agent), or bound arrays (queries restricted to a few
 * runs pass the medians of the whole window).
 */
export const AGENT_MEDIANS = {
  inline: {
    columns: `quantileExactIf(0.5)(steps, outcome != 'incomplete') OVER agent_runs AS agent_median,
            countIf(outcome != 'incomplete') OVER agent_runs > 0 AS agent_known`,
    window: 'WINDOW agent_runs AS (PARTITION BY service, agent)',
  },
  bound: {
    columns: `indexOf(arrayZip({medianServices:Array(String)}, {medianAgents:Array(String)}), (service, agent)) AS median_index,
            toFloat64(if(median_index = 0, 0, {medianValues:Array(Float64)}[median_index])) AS agent_median,
            median_index > 0 AS agent_known`,
    window: '',
  },
} as const;
export type AgentLimitsSource = keyof typeof AGENT_MEDIANS;

/**
 * scoped_runs (needs RUNS_CTE): the runs a query looks at, with the agent's
 * median steps per completed run (quantileExact(0.5), the upper median;
 * none for incomplete runs) and the runaway limit max(multiplier × median,
 * hard cap). Materialised: read once however often a query refers to it.
 */
export function scopedRunsCtes(scope: RunScope, limits: AgentLimitsSource): string {
  const m = AGENT_MEDIANS[limits];
  return `scoped_runs AS MATERIALIZED (
    SELECT
        run_id, agent, service, outcome, run_start, run_end, steps, root_error_type,
        outcome != 'incomplete' AND agent_known AS has_median,
        if(has_median, agent_median, 0) AS median_steps,
        greatest({runawayMultiplier:Float64} * median_steps, toFloat64({runawayHardCap:UInt32})) AS step_limit
    FROM
    (
        SELECT
            run_id, agent, service, outcome, run_start, run_end, steps, root_error_type,
            ${m.columns}
        FROM runs
        ${m.window}
    ) AS s
    WHERE ${RUN_SCOPES[scope]}
)`;
}

/**
 * The per-run arrays of the loop-relevant steps (tool, plan, validate), as
 * aggregate columns of a GROUP BY run_id over spans of step kinds (source
 * rows need start_time, span_id, step_kind, tool_name, step_name,
 * tool_args_hash, state_hash, output_hash, ok, duration_ns, cost).
 */
export const LOOP_ARRAY_COLUMNS = (() => {
  const when = "step_kind IN ('tool', 'plan', 'validate')";
  const cols = [
    [`${START_NS}`, 'l_ts'],
    [SPAN_KEY, 'l_ss'],
    ["toUInt8(multiIf(step_kind = 'tool', 1, step_kind = 'plan', 2, 3) + if(ok, 0, 4))", 'l_fl'],
    [`multiIf(step_kind = 'tool', cityHash64(${TOOL_NAME}), state_hash != '', cityHash64(state_hash), toUInt64(0))`, 'l_k1'],
    [
      `multiIf(step_kind = 'tool' AND tool_args_hash != '', cityHash64(${TOOL_NAME}, tool_args_hash),
                step_kind = 'validate' AND output_hash != '', cityHash64(output_hash), toUInt64(0))`,
      'l_k2',
    ],
    ['duration_ns', 'l_ds'],
    ['toFloat64(cost)', 'l_cs'],
  ] as const;
  return cols.map(([expr, name]) => `groupArrayIf(${expr}, ${when}) AS ${name}`).join(',\n        ');
})();

/** The array shifted right by one (its first element repeated): element i is element i − 1. */
function prev(a: string): string {
  return `arrayPopBack(arrayPushFront(${a}, ${a}[1]))`;
}
/** Shifted right by two. */
function prev2(a: string): string {
  return `arrayPopBack(arrayPopBack(arrayPushFront(arrayPushFront(${a}, ${a}[1]), ${a}[1])))`;
}

/**
 * Detections per run from the arrays of LOOP_ARRAY_COLUMNS (in `source`).
 * Elements of `st` (sorted by start, span key; duplicates of a span dropped):
 * (1 start, 2 span key, 3 code: 1 tool / 2 plan / 3 validate, +4 when failed,
 * 4 key1: tool name or state hash, 5 key2: (tool, args) or output hash,
 * 6 duration, 7 cost).
 */
/** A UInt256 sort key: (key, start, span key) as one number, so sorting compares integers, not tuples. */
function BY_KEY(key: string): string {
  return `bitOr(bitOr(bitShiftLeft(toUInt256(${key}), 128), bitShiftLeft(toUInt256(x.1), 64)), toUInt256(x.2))`;
}

export function loopFoundCte(source: string): string {
  const wasted = 'arrayMap(x -> (x.1, x.2, x.6, x.7), arrayPopFront(g))';
  // Each level reads the previous level's columns: an alias used in the same
  // SELECT would be expanded into its whole expression at every use.
  return `loop_found AS (
    SELECT
        run_id,
        arrayConcat(
            arrayMap(g -> (toUInt8(1), g[1].5, toUInt64(0), toUInt32(length(g)), g[1].1, g[1].2, ${wasted}), ra_g),
            arrayMap(g -> (toUInt8(2), g[1].4, toUInt64(0), toUInt32(length(g)), g[1].1, g[1].2, ${wasted}), sp_g),
            arrayMap(g -> (toUInt8(3), g[1].5, toUInt64(0), toUInt32(length(g)), g[1].1, g[1].2, ${wasted}), vo_g),
            arrayMap(g -> (toUInt8(4), g[1].8, g[1].7, toUInt32(intDiv(length(g) + 2, 2)), g[1].9, g[1].10,
                           arrayMap(x -> (x.1, x.2, x.5, x.6), g)), pp_g)
        ) AS dets
    FROM
    (
        SELECT
            run_id,
            arrayFilter(g -> length(g) >= {repeat:UInt32}, arraySplit((x, p) -> x.5 != p.5, ra, ${prev('ra')})) AS ra_g,
            arrayFilter(g -> length(g) >= {repeat:UInt32}, arraySplit((x, p) -> x.4 != p.4, sp, ${prev('sp')})) AS sp_g,
            arrayFilter(g -> length(g) >= {repeat:UInt32},
                arraySplit((x, p) -> NOT (x.3 = 7 AND p.3 = 7 AND x.5 != 0 AND x.5 = p.5), va, ${prev('va')})) AS vo_g,
            arrayFilter(g -> g[1].4 AND length(g) + 2 >= 2 * {pingPongCycles:UInt32}, arraySplit((x, p) -> x.4 != p.4, tm, ${prev('tm')})) AS pp_g
        FROM
        (
            SELECT
                run_id, ra, sp, va,
                arrayMap((x, p1, p2, i) -> (x.1, x.2, x.4, i >= 3 AND x.4 = p2.4 AND x.4 != p1.4, x.6, x.7, p1.4, p2.4, p2.1, p2.2),
                    tl, ${prev('tl')}, ${prev2('tl')}, arrayEnumerate(tl)) AS tm
            FROM
            (
                SELECT
                    run_id,
                    arraySort(x -> ${BY_KEY('x.5')}, arrayFilter(x -> bitAnd(x.3, 3) = 1 AND x.5 != 0, st)) AS ra,
                    arraySort(x -> ${BY_KEY('x.4')}, arrayFilter(x -> bitAnd(x.3, 3) IN (2, 3) AND x.4 != 0, st)) AS sp,
                    arrayFilter(x -> bitAnd(x.3, 3) = 3, st) AS va,
                    arrayFilter(x -> bitAnd(x.3, 3) = 1, st) AS tl
                FROM
                (
                    SELECT run_id, arrayFilter((x, p, i) -> i = 1 OR x.1 != p.1 OR x.2 != p.2, st0, ${prev('st0')}, arrayEnumerate(st0)) AS st
                    FROM
                    (
                        SELECT
                            run_id,
                            arraySort((x, k) -> k, arrayZip(l_ts, l_ss, l_fl, l_k1, l_k2, l_ds, l_cs),
                                arrayMap((t, s) -> bitOr(bitShiftLeft(toUInt128(t), 64), toUInt128(s)), l_ts, l_ss)) AS st0
                        FROM ${source}
                    )
                )
            )
        )
    )
)`;
}

/** Runaway detections (needs PRICED_SPANS_CTE and scoped_runs): the steps beyond each flagged run's limit. */
export const RUNAWAY_FOUND_CTE = `runaway_found AS (
    SELECT
        run_id,
        arraySlice(all_steps, toUInt32(floor(step_limit)) + 1) AS w,
        (toUInt8(5), toUInt64(0), toUInt64(0), toUInt32(length(all_steps)), w[1].1, w[1].2, w) AS det
    FROM
    (
        SELECT
            p.run_id AS run_id, any(r.step_limit) AS step_limit,
            arraySort(groupArray((${START_NS}, ${SPAN_KEY}, duration_ns, toFloat64(cost)))) AS all_steps
        FROM priced AS p
        INNER JOIN (SELECT run_id, step_limit FROM scoped_runs WHERE steps > step_limit) AS r ON r.run_id = p.run_id
        WHERE p.step_kind NOT IN ('', 'run')
        GROUP BY p.run_id
    )
    WHERE length(all_steps) > step_limit
)`;

/** Every scoped run with its detections (needs scoped_runs, loop_found, runaway_found). */
export const RUN_LOOPS_CTE = `run_loops AS MATERIALIZED (
    SELECT
        r.run_id AS run_id, r.agent AS agent, r.service AS service, r.outcome AS outcome, r.run_start AS run_start,
        r.has_median AS has_median, r.median_steps AS median_steps, r.step_limit AS step_limit,
        arrayConcat(l.dets, if(w.det.1 = 5, [w.det], [])) AS dets
    FROM scoped_runs AS r
    LEFT JOIN loop_found AS l ON l.run_id = r.run_id
    LEFT JOIN runaway_found AS w ON w.run_id = r.run_id
    SETTINGS join_use_nulls = 0
)`;

/** Per flagged run, all its detections with each wasted span counted once (needs run_loops). */
export const RUN_WASTE_CTE = `run_waste AS (
    SELECT
        run_id,
        arrayDistinct(arrayMap(d -> ${KIND_OF_CODE_SQL}[d.1], dets)) AS kinds,
        length(dets) AS detections,
        arrayDistinct(arrayFlatten(arrayMap(d -> d.7, dets))) AS w,
        arraySum(x -> x.3, w) AS wasted_ns,
        arraySum(x -> x.4, w) AS wasted_cost
    FROM run_loops
    WHERE notEmpty(dets)
)`;
