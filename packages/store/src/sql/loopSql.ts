/**
 * SQL fragments of loop detection (RELIABILITY-MATH "Loops and no progress").
 * Every value a user controls is a bound parameter; these strings only vary
 * by which fixed fragments a query includes.
 *
 * The plan, for millions of spans:
 * 1. `scoped_runs` (materialised: computed once however often it is read):
 *    the runs a query looks at, from RUNS_CTE, with the agent's median steps
 *    per completed run (a window over the kept runs, or bound medians when
 *    the query is restricted to a few runs) and the runaway limit.
 * 2. One GROUP BY run over the step spans collects parallel numeric arrays of
 *    the tool / plan / validate steps (start, span key, kind+status, two
 *    UInt64 keys, duration, cost) and, for runs over their limit only, of
 *    every step; per run, array functions sort them once and find repeated
 *    actions and repeated states (sort by key, split into equal-key groups),
 *    failed-validation streaks and ping-pong alternations (split the
 *    time-ordered sequence where the rule breaks). No lambda captures a
 *    per-run array, so the work stays linear in the run's length.
 * 3. `flags` mode (loop rate, failure causes) only needs to know whether a
 *    run loops: it reads neither durations nor costs, and runaway is the
 *    step count against the limit.
 *
 * A detection is a tuple (variant code, key1, key2, count, anchor start,
 * anchor span key, wasted spans) where each wasted span is (start, span key,
 * duration, cost): the same span has the same tuple in every detection, so
 * `arrayDistinct` over detections counts each wasted span once.
 */

import { LOOP_KIND_OF_VARIANT, LOOP_VARIANTS, LOOP_VARIANT_CODE, type LoopVariant } from '@telltale/semconv';
import { thresholdSql } from './loopParams.js';
import { PRICED_SPANS_CTE, RUNS_CTE, withClause } from './sqlParts.js';

/** A SQL array of `of(variant)` indexed by variant code (LOOP_VARIANT_CODE: 1, 2, …). */
function byCodeSql(of: (variant: LoopVariant) => string): string {
  const byCode = [...LOOP_VARIANTS].sort((a, b) => LOOP_VARIANT_CODE[a] - LOOP_VARIANT_CODE[b]);
  return `[${byCode.map((v) => `'${of(v)}'`).join(', ')}]`;
}

/** Variant and kind names by code, from the one definition (semconv loopKinds.ts). */
export const VARIANT_OF_CODE_SQL = byCodeSql((v) => v);
export const KIND_OF_CODE_SQL = byCodeSql((v) => LOOP_KIND_OF_VARIANT[v]);

/** A variant's code as a SQL literal: `toUInt8(1)`. */
export function variantCodeSql(variant: LoopVariant): string {
  return `toUInt8(${LOOP_VARIANT_CODE[variant]})`;
}

/** Span ids are 16 hex digits: as a number they order like the text. */
export const SPAN_KEY = 'reinterpretAsUInt64(reverse(unhex(span_id)))';
const TOOL_NAME = "if(tool_name != '', tool_name, step_name)";
export const START_NS = 'toUnixTimestamp64Nano(start_time)';

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
 * `extraColumns` of `runs` are passed through (the run facts' loop kinds and causes).
 */
export function scopedRunsCtes(
  scope: RunScope,
  limits: AgentLimitsSource,
  extraColumns: readonly string[] = [],
): string {
  const m = AGENT_MEDIANS[limits];
  const extra = extraColumns.map((c) => `, ${c}`).join('');
  return `scoped_runs AS MATERIALIZED (
    SELECT
        run_id, agent, service, outcome, run_start, run_end, steps, root_error_type${extra},
        outcome != 'incomplete' AND agent_known AS has_median,
        if(has_median, agent_median, 0) AS median_steps,
        greatest(${thresholdSql('runawayMultiplier')} * median_steps, toFloat64(${thresholdSql('runawayHardCap')})) AS step_limit
    FROM
    (
        SELECT
            run_id, agent, service, outcome, run_start, run_end, steps, root_error_type${extra},
            ${m.columns}
        FROM runs
        ${m.window}
    ) AS s
    WHERE ${RUN_SCOPES[scope]}
)`;
}

/** `waste`: detections with wasted time and cost; `flags`: only whether each run loops. */
export type LoopMode = 'waste' | 'flags';

const RELEVANT = "step_kind IN ('tool', 'plan', 'validate')";

/**
 * Aggregate columns of a GROUP BY run_id over a run's step spans (source rows
 * need start_time, span_id, step_kind, tool_name, step_name, tool_args_hash,
 * state_hash, output_hash, ok, and in `waste` mode duration_ns and cost; the
 * `waste` columns also need scoped_runs, unless `allStepsOfEveryRun`: then
 * `l_all` holds every run's steps, as the run-facts finaliser, which knows no
 * limits, needs).
 */
export function loopArrayColumns(mode: LoopMode, allStepsOfEveryRun = false): string {
  const cols: Array<[string, string]> = [
    [START_NS, 'l_ts'],
    [SPAN_KEY, 'l_ss'],
    ["toUInt8(multiIf(step_kind = 'tool', 1, step_kind = 'plan', 2, 3) + if(ok, 0, 4))", 'l_fl'],
    [
      `multiIf(step_kind = 'tool', cityHash64(${TOOL_NAME}), state_hash != '', cityHash64(state_hash), toUInt64(0))`,
      'l_k1',
    ],
    [
      `multiIf(step_kind = 'tool' AND tool_args_hash != '', cityHash64(${TOOL_NAME}, tool_args_hash),
                step_kind = 'validate' AND output_hash != '', cityHash64(output_hash), toUInt64(0))`,
      'l_k2',
    ],
  ];
  if (mode === 'waste') cols.push(['duration_ns', 'l_ds'], ['toFloat64(cost)', 'l_cs']);
  const out = cols.map(([expr, name]) => `groupArrayIf(${expr}, ${RELEVANT}) AS ${name}`);
  if (mode === 'waste') {
    const runaway = allStepsOfEveryRun ? '1' : 'run_id IN (SELECT run_id FROM scoped_runs WHERE steps > step_limit)';
    out.push(`groupArrayIf((${START_NS}, ${SPAN_KEY}, duration_ns, toFloat64(cost)), ${runaway}) AS l_all`);
  }
  return out.join(',\n        ');
}

/** The loop arrays of every scoped run (needs PRICED_SPANS_CTE and scoped_runs). */
export function loopSeqCte(mode: LoopMode, scope: RunScope, allStepsOfEveryRun = false): string {
  return `loop_seq AS (
    SELECT run_id,
        ${loopArrayColumns(mode, allStepsOfEveryRun)}
    FROM priced
    WHERE ${mode === 'waste' ? "step_kind NOT IN ('', 'run')" : RELEVANT}
      ${scope === 'all' ? '' : 'AND run_id IN (SELECT run_id FROM scoped_runs)'}
    GROUP BY run_id
)`;
}

/** The array shifted right by one (its first element repeated): element i is element i − 1. */
function prev(a: string): string {
  return `arrayPopBack(arrayPushFront(${a}, ${a}[1]))`;
}
/** Shifted right by two. */
function prev2(a: string): string {
  return `arrayPopBack(arrayPopBack(arrayPushFront(arrayPushFront(${a}, ${a}[1]), ${a}[1])))`;
}

const EMPTY_WASTE = "CAST([], 'Array(Tuple(Int64, UInt64, Int64, Float64))')";

/** (key, position) as one UInt128 sort key: sorting compares integers, and equal keys keep their time order. */
function byKeyThenPosition(arr: string, key: string): string {
  return `arraySort((x, k) -> k, ${arr}, arrayMap((x, i) -> bitOr(bitShiftLeft(toUInt128(${key}), 32), toUInt128(i)), ${arr}, arrayEnumerate(${arr})))`;
}

/**
 * Detections per run (but runaway) from the arrays of loopArrayColumns (in
 * `source`); `waste` mode passes `l_all` through. Elements of `st` (sorted
 * by start, span key; a span seen twice kept once): (1 start, 2 span key,
 * 3 code: 1 tool / 2 plan / 3 validate, +4 when failed, 4 key1: tool name or
 * state hash, 5 key2: (tool, args) or output hash[, 6 duration, 7 cost]).
 * Each level reads the previous level's columns: an alias used twice in one
 * SELECT would be expanded into its whole expression at every use.
 */
export function loopFoundCte(source: string, mode: LoopMode): string {
  const pass = mode === 'waste' ? ', l_all' : '';
  const zip =
    mode === 'waste' ? 'arrayZip(l_ts, l_ss, l_fl, l_k1, l_k2, l_ds, l_cs)' : 'arrayZip(l_ts, l_ss, l_fl, l_k1, l_k2)';
  const waste = (arr: string): string =>
    mode === 'waste' ? `arrayMap(x -> (x.1, x.2, x.6, x.7), ${arr})` : EMPTY_WASTE;
  const alt = (offset: number): string => `tl[g[1].1 - ${offset}]`;
  return `loop_found AS (
    SELECT
        run_id${pass},
        arrayConcat(
            arrayMap(g -> (${variantCodeSql('tool_args')}, g[1].5, toUInt64(0), toUInt32(length(g)), g[1].1, g[1].2, ${waste('arrayPopFront(g)')}), ra_g),
            arrayMap(g -> (${variantCodeSql('state_hash')}, g[1].4, toUInt64(0), toUInt32(length(g)), g[1].1, g[1].2, ${waste('arrayPopFront(g)')}), sp_g),
            arrayMap(g -> (${variantCodeSql('failed_validation')}, g[1].5, toUInt64(0), toUInt32(length(g)), g[1].1, g[1].2, ${waste('arrayPopFront(g)')}), vo_g),
            arrayMap(g -> (${variantCodeSql('alternation')}, ${alt(2)}.4, ${alt(1)}.4, toUInt32(intDiv(length(g) + 2, 2)), ${alt(2)}.1, ${alt(2)}.2,
                           ${waste('arrayMap(x -> tl[x.1], g)')}), pp_g)
        ) AS dets
    FROM
    (
        SELECT
            run_id${pass}, ra_g, sp_g, vo_g, tl,
            arrayFilter(g -> g[1].2 = 1 AND length(g) + 2 >= 2 * ${thresholdSql('pingPongCycles')}, arraySplit((x, p) -> x.2 != p.2, mz, ${prev('mz')})) AS pp_g
        FROM
        (
            SELECT
                run_id${pass}, tl,
                arrayFilter(g -> length(g) >= ${thresholdSql('repeat')}, arraySplit((x, p) -> x.5 != p.5, ra, ${prev('ra')})) AS ra_g,
                arrayFilter(g -> length(g) >= ${thresholdSql('repeat')}, arraySplit((x, p) -> x.4 != p.4, sp, ${prev('sp')})) AS sp_g,
                arrayFilter(g -> length(g) >= ${thresholdSql('repeat')},
                    arraySplit((x, p) -> NOT (x.3 = 7 AND p.3 = 7 AND x.5 != 0 AND x.5 = p.5), va, ${prev('va')})) AS vo_g,
                arrayZip(arrayEnumerate(names),
                    arrayMap((n, p1, p2, i) -> toUInt8(i >= 3 AND n = p2 AND n != p1), names, ${prev('names')}, ${prev2('names')}, arrayEnumerate(names))) AS mz
            FROM
            (
                SELECT
                    run_id${pass}, va, tl,
                    ${byKeyThenPosition('ra0', 'x.5')} AS ra,
                    ${byKeyThenPosition('sp0', 'x.4')} AS sp,
                    arrayMap(x -> x.4, tl) AS names
                FROM
                (
                    SELECT
                        run_id${pass},
                        arrayFilter(x -> bitAnd(x.3, 3) = 1 AND x.5 != 0, st) AS ra0,
                        arrayFilter(x -> bitAnd(x.3, 3) IN (2, 3) AND x.4 != 0, st) AS sp0,
                        arrayFilter(x -> bitAnd(x.3, 3) = 3, st) AS va,
                        arrayFilter(x -> bitAnd(x.3, 3) = 1, st) AS tl
                    FROM
                    (
                        SELECT run_id${pass}, arrayFilter((x, p, i) -> i = 1 OR x.1 != p.1 OR x.2 != p.2, st0, ${prev('st0')}, arrayEnumerate(st0)) AS st
                        FROM
                        (
                            SELECT
                                run_id${pass},
                                arraySort((x, k) -> k, ${zip}, arrayMap((t, s) -> bitOr(bitShiftLeft(toUInt128(t), 64), toUInt128(s)), l_ts, l_ss)) AS st0
                            FROM ${source}
                        )
                    )
                )
            )
        )
    )
)`;
}

/**
 * Every scoped run with its detections (needs scoped_runs and loop_found).
 * Runaway: more steps than the limit; in `waste` mode the steps beyond it,
 * in start order, are the evidence and the waste.
 */
export function runLoopsCte(mode: LoopMode): string {
  const runaway =
    mode === 'waste'
      ? `if(length(l.l_all) > r.step_limit,
              [(${variantCodeSql('step_count')}, toUInt64(0), toUInt64(0), toUInt32(length(l.l_all)), w[1].1, w[1].2, w)], [])`
      : `if(r.steps > r.step_limit, [(${variantCodeSql('step_count')}, toUInt64(0), toUInt64(0), toUInt32(r.steps), toInt64(0), toUInt64(0), ${EMPTY_WASTE})], [])`;
  return `run_loops AS MATERIALIZED (
    SELECT
        r.run_id AS run_id, r.agent AS agent, r.service AS service, r.outcome AS outcome, r.run_start AS run_start,
        r.has_median AS has_median, r.median_steps AS median_steps, r.step_limit AS step_limit,
        ${mode === 'waste' ? 'arraySlice(arraySort(l.l_all), toUInt32(floor(r.step_limit)) + 1) AS w,' : ''}
        arrayConcat(l.dets, ${runaway}) AS dets
    FROM scoped_runs AS r
    LEFT JOIN loop_found AS l ON l.run_id = r.run_id
    SETTINGS join_use_nulls = 0
)`;
}

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

/** The whole chain over all kept runs: priced spans, runs, scoped_runs, loop arrays, detections, run_loops. */
export function loopChain(limits: AgentLimitsSource, mode: LoopMode): string {
  return withClause(
    PRICED_SPANS_CTE,
    RUNS_CTE,
    scopedRunsCtes('all', limits),
    loopSeqCte(mode, 'all'),
    loopFoundCte('loop_seq', mode),
    runLoopsCte(mode),
  );
}
