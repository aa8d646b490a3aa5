import { PLAIN_ROOTS, IS_STEP, SCOPE, exactLevels } from './plainSqlParts.js';

/** The facade's levels: p50, p90, p95, p99, p99.9. */
const LEVELS = exactLevels([0.5, 0.9, 0.95, 0.99, 0.999]);
const STATS = `count() AS n, avg(d) AS mean_ns, max(d) AS max_ns, arrayMap(x -> toFloat64(x), quantilesExact(${LEVELS})(d)) AS q`;

/** Span-level latency groupings: key column and which spans count. */
export const PLAIN_SPAN_GROUPS = {
  step: { key: 'step_name', where: IS_STEP },
  tool: { key: 'tool_name', where: "step_kind = 'tool' AND tool_name != ''" },
  model: { key: 'model', where: "step_kind = 'llm' AND model != ''" },
} as const;

/** Exact percentiles of span durations per step / tool / model. */
export function plainSpanLatency(groupBy: keyof typeof PLAIN_SPAN_GROUPS): string {
  const g = PLAIN_SPAN_GROUPS[groupBy];
  return `SELECT toString(${g.key}) AS key, '' AS service, ${STATS}
FROM (SELECT ${g.key}, duration_ns AS d FROM spans WHERE ${SCOPE} AND ${g.where})
GROUP BY key`;
}

/** Exact percentiles of completed runs' root durations, per agent or over all runs. */
export function plainRunLatency(groupBy: 'agent' | 'run'): string {
  const [key, service] = groupBy === 'agent' ? ['agent', 'service'] : ["''", "''"];
  return `WITH ${PLAIN_ROOTS}
SELECT ${key} AS key, ${service} AS service, ${STATS}
FROM (SELECT agent, service, root_ns AS d FROM roots)
GROUP BY key, service`;
}

/** Per-bucket step percentiles of the ten steps with the most spans. */
export const PLAIN_STEP_SERIES = `WITH top AS (
    SELECT step_name FROM spans WHERE ${SCOPE} AND ${IS_STEP}
    GROUP BY step_name ORDER BY count() DESC, step_name LIMIT {topN:UInt32}
)
SELECT toString(step_name) AS key, '' AS service,
    intDiv(toUnixTimestamp64Milli(start_time), {intervalMs:Int64}) * {intervalMs:Int64} AS bucket_ms, ${STATS}
FROM (SELECT step_name, start_time, duration_ns AS d FROM spans WHERE ${SCOPE} AND ${IS_STEP} AND step_name IN (SELECT step_name FROM top))
GROUP BY key, bucket_ms`;

const TAIL_LEVELS = exactLevels([0.99, 0.45, 0.5, 0.55]);

/**
 * Tail attribution: runs at or above p99 of root duration (flag 1) and the
 * other runs within [p45, p55] (flag 2); self time of every span of those
 * runs (duration minus the union of its children's intervals), summed per
 * step name, with the roots' own time as kind `run` and non-step spans as
 * `other`. A span meets its children by being emitted twice (as itself and
 * as its parent's child) and grouped by span id.
 */
export const PLAIN_TAIL = `WITH ${PLAIN_ROOTS},
(SELECT (quantilesExact(${TAIL_LEVELS})(root_ns), groupArray((run_id, root_ns)), count()) FROM roots) AS agg,
agg.1 AS q,
arrayFilter(x -> x.2 >= q[1] OR (x.2 >= q[2] AND x.2 <= q[4]), agg.2) AS chosen,
arrayMap(x -> if(x.2 >= q[1], toUInt8(1), toUInt8(2)), chosen) AS flags,
self_times AS (
    SELECT
        countIf(role = 0) > 0 AS present,
        any(flag) AS run_flag,
        multiIf(anyIf(is_root, role = 0), 'run', anyIf(step_kind, role = 0) = '', 'other', 'step') AS kind,
        anyIf(step_name, role = 0) AS name,
        anyIf(s, role = 0) AS ps,
        anyIf(e, role = 0) AS pe,
        arrayFold((acc, x) -> (acc.1 + greatest(0, least(x.2, pe) - greatest(x.1, acc.2)), greatest(acc.2, least(x.2, pe))),
                  arraySort(groupArrayIf((s, e), role = 1)), (toInt64(0), ps)).1 AS covered,
        greatest(0, pe - ps - covered) AS self_ns
    FROM (
        SELECT run_id, transform(run_id, arrayMap(x -> x.1, chosen), flags, toUInt8(0)) AS flag, step_kind = 'run' OR is_run_root AS is_root, step_kind, step_name,
            toUnixTimestamp64Nano(start_time) AS s, toUnixTimestamp64Nano(end_time) AS e,
            arrayJoin([(0, span_id), (1, parent_span_id)]) AS rk, rk.1 AS role, rk.2 AS gid
        FROM spans
        WHERE ${SCOPE} AND flag != 0
    )
    WHERE NOT (role = 1 AND gid = '')
    GROUP BY run_id, gid
    HAVING present
)
SELECT kind, if(kind = 'step', toString(name), '') AS step,
    sumIf(self_ns, run_flag = 1) AS tail_ns, sumIf(self_ns, run_flag = 2) AS median_ns,
    agg.3 AS completed, countEqual(flags, 1) AS tail_runs, countEqual(flags, 2) AS median_runs
FROM self_times
GROUP BY kind, step`;

/** Completed runs (roots) by root duration in `{buckets}` equal-width bins from the shortest to the longest; empty bins left out. */
export const PLAIN_DURATION_HISTOGRAM = `WITH ${PLAIN_ROOTS},
(SELECT (min(toFloat64(root_ns)), max(toFloat64(root_ns))) FROM roots) AS b
SELECT if(b.2 > b.1, least(toUInt32(floor((toFloat64(root_ns) - b.1) / (b.2 - b.1) * {buckets:UInt32})), {buckets:UInt32} - 1), 0) AS bucket, count() AS runs
FROM roots
GROUP BY bucket`;
