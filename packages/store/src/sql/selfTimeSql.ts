/**
 * span_roles and self_times (needs PRICED_SPANS_CTE): the self time of every
 * span whose `flagSql` (a UInt8 expression of the span's row) is not 0, with
 * its run (`run`), flag, kind code (0 step, 1 run root, 2 other) and step name
 * in `me`. Shared by the tail query and the run-facts finaliser.
 */
export function selfTimeCtes(flagSql: string): string {
  return `span_roles AS (
    SELECT run_id, flag, role_key.1 AS role, cityHash64(run_id, role_key.2) AS group_key, kind_code, step_name, s, e
    FROM (
        SELECT run_id, flag, s, e, kind_code, step_name, arrayJoin([(0, span_id), (1, parent_span_id)]) AS role_key
        FROM (
            SELECT run_id, ${flagSql} AS flag,
                toUnixTimestamp64Nano(start_time) AS s, toUnixTimestamp64Nano(end_time) AS e,
                multiIf(root_rank > 0, 1, step_kind = '', 2, 0) AS kind_code, step_name, span_id, parent_span_id
            FROM priced
            WHERE flag != 0
        )
    )
    WHERE NOT (role = 1 AND role_key.2 = '')
),
self_times AS (
    SELECT
        any(run_id) AS run,
        any(flag) AS run_flag,
        min(role) = 0 AS present,
        argMin((kind_code, step_name, s, e), role) AS me,
        arrayFilter(c -> c.2 > c.1, arrayMap(c -> (greatest(c.1, me.3), least(c.2, me.4)), groupArrayIf((s, e), role = 1))) AS clipped,
        arraySort(x -> x.1, arrayConcat(arrayMap(c -> (c.1, 1), clipped), arrayMap(c -> (c.2, -1), clipped))) AS events,
        arraySum((gap, depth) -> if(depth > 0, gap, 0),
                 arrayPopFront(arrayDifference(arrayMap(x -> x.1, events))),
                 arrayPopBack(arrayCumSum(arrayMap(x -> x.2, events)))) AS covered,
        greatest(0, me.4 - me.3 - covered) AS self_ns
    FROM span_roles
    GROUP BY group_key
    HAVING present
)`;
}
