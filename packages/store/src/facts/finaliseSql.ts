import { CAUSE_FACTS_CTE, CAUSE_GROUPS_CTE, CAUSE_WITHOUT_LOOP_SQL } from '../sql/causeSql.js';
import { KIND_OF_CODE_SQL, SPAN_KEY, START_NS, loopFoundCte, loopSeqCte } from '../sql/loopSql.js';
import { PRICED_ONCE_CTE, PRICED_SPANS_CTE, RUNS_ONCE_CTE, STEP_LEDGER_CTE, withClause } from '../sql/sqlParts.js';
import { selfTimeCtes } from '../sql/selfTimeSql.js';

/**
 * The finaliser's SQL: per-run facts computed from the spans of a set of runs
 * (`runIds`) by the very CTEs the span queries use, so both paths agree by
 * construction. Parameters: filterParams over [epoch, far future) with the
 * runs' ids, an empty price table (nothing stored depends on prices), and
 * the default `repeat` / `pingPongCycles` loop thresholds.
 */

/** Usage per model of spans priced by the table (usage counted, no explicit cost, some tokens): (models, uncached, cached, output, spans). */
function usageByModelIf(cond: string, prefix = ''): string {
  const c = (col: string): string => `${prefix}${col}`;
  return `sumMapIf([toString(${c('model')})], [toUInt64(${c('input_tokens')} - least(${c('cached_input_tokens')}, ${c('input_tokens')}))],
        [toUInt64(least(${c('cached_input_tokens')}, ${c('input_tokens')}))], [toUInt64(${c('output_tokens')})], [toUInt64(1)],
        ${cond} AND ${c('usage_counted')} AND ${c('cost_usd')} IS NULL AND ${c('input_tokens')} + ${c('output_tokens')} > 0)`;
}

const VERSION_SQL = 'toUInt64(toUnixTimestamp64Nano(now64(9)))';

/** Every finalised run, for cause_facts and cause_groups (which read `scoped_runs`). */
const ALL_RUNS_SCOPED_CTE = `scoped_runs AS MATERIALIZED (SELECT run_id FROM runs)`;

const RUN_SELF_CTE = `run_self AS (
    SELECT run AS run_id, groupArray((kind_code, step, self_ns)) AS self_times
    FROM (
        SELECT run, me.1 AS kind_code, if(kind_code = 0, me.2, '') AS step, toInt64(sum(self_ns)) AS self_ns
        FROM self_times
        GROUP BY run, kind_code, step
    )
    GROUP BY run
)`;

const RUN_USAGE_CTE = `run_usage AS (
    SELECT run_id,
        sumIf(ifNull(cost_usd, 0), usage_counted) AS explicit_cost,
        (${usageByModelIf('1')} AS um).1 AS models, um.2 AS uncached, um.3 AS cached, um.4 AS output, um.5 AS spans,
        max(ingested_at) AS ingested_max
    FROM priced
    GROUP BY run_id
)`;

export const FINALISE_RUN_FACTS_SQL = `INSERT INTO run_facts (project_id, run_id, run_start, run_end, agent, service, outcome, duration_ns,
    root_error_type, steps, span_count, groups, never_ok, explicit_cost, usage_models, usage_uncached, usage_cached, usage_output,
    usage_spans, input_tokens, output_tokens, cached_input_tokens, loop_kinds, loop_dets, cause_base, self_times, ingested_max, session_id, version)
${withClause(
  PRICED_ONCE_CTE,
  RUNS_ONCE_CTE,
  STEP_LEDGER_CTE,
  ALL_RUNS_SCOPED_CTE,
  CAUSE_FACTS_CTE,
  loopSeqCte('waste', 'all', true),
  loopFoundCte('loop_seq', 'waste'),
  CAUSE_GROUPS_CTE,
  selfTimeCtes('toUInt8(1)'),
  RUN_SELF_CTE,
  RUN_USAGE_CTE,
)}
SELECT
    {projectId:String}, r.run_id, r.run_start, r.run_end, r.agent, r.service, r.outcome, r.run_duration_ns,
    r.root_error_type, r.steps, r.span_count, g.group_count, g.never_ok, u.explicit_cost, u.models, u.uncached, u.cached, u.output,
    u.spans, r.run_input_tokens, r.run_output_tokens, r.run_cached_input_tokens,
    arrayDistinct(arrayMap(d -> ${KIND_OF_CODE_SQL}[d.1], l.dets)), l.dets,
    if(r.outcome = 'failure', ${CAUSE_WITHOUT_LOOP_SQL}, ''),
    s.self_times, u.ingested_max, r.session_id, ${VERSION_SQL}
FROM runs AS r
LEFT JOIN cause_facts AS f ON f.run_id = r.run_id
LEFT JOIN loop_found AS l ON l.run_id = r.run_id
LEFT JOIN cause_groups AS g ON g.run_id = r.run_id
LEFT JOIN run_self AS s ON s.run_id = r.run_id
LEFT JOIN run_usage AS u ON u.run_id = r.run_id
SETTINGS join_use_nulls = 0, enable_materialized_cte = 1`;

/** Per (run, step name): the attempt-group ledger's sums and the retries' duration and usage. */
export const FINALISE_STEP_FACTS_SQL = `INSERT INTO run_step_facts (project_id, run_id, step_name, step_kind, run_start, agent, service, outcome,
    groups, first_ok, recovered, attempts, ok_attempts, retry_ns, retry_explicit_cost, retry_models, retry_uncached, retry_cached,
    retry_output, version)
${withClause(PRICED_ONCE_CTE, RUNS_ONCE_CTE, STEP_LEDGER_CTE)}
SELECT
    {projectId:String}, l.run_id, l.step_name, any(l.step_kind), any(r.run_start), any(r.agent), any(r.service), any(r.outcome),
    sum(l.g_start), sum(l.g_first_ok), sum(l.g_recovered), count(), countIf(l.ok), sumIf(l.duration_ns, NOT l.g_start),
    sumIf(ifNull(l.cost_usd, 0), NOT l.g_start AND l.usage_counted),
    (${usageByModelIf('NOT l.g_start', 'l.')} AS ru).1, ru.2, ru.3, ru.4,
    ${VERSION_SQL}
FROM step_ledger AS l
INNER JOIN runs AS r ON r.run_id = l.run_id
GROUP BY l.run_id, l.step_name
SETTINGS enable_materialized_cte = 1`;

/**
 * Every step span of each run, in start order (then span key, as the span
 * queries sort them), with what its cost is made of: the explicit cost (NaN
 * when the table prices it; 0 on aggregate spans, whose usage their
 * children carry), the model and the token counts.
 */
export const FINALISE_RUN_STEPS_SQL = `INSERT INTO run_steps (project_id, run_id, run_start, start_ns, span_key, duration_ns, explicit_cost, model,
    uncached, cached, output, version)
${withClause(PRICED_SPANS_CTE)}
SELECT {projectId:String}, run_id, run_start,
    arrayMap(x -> x.1, s), arrayMap(x -> x.2, s), arrayMap(x -> x.3, s), arrayMap(x -> x.4, s), arrayMap(x -> x.5, s),
    arrayMap(x -> x.6, s), arrayMap(x -> x.7, s), arrayMap(x -> x.8, s), ${VERSION_SQL}
FROM (
    SELECT run_id, min(start_time) AS run_start,
        arraySort(groupArray((${START_NS}, ${SPAN_KEY}, duration_ns, if(usage_counted, ifNull(cost_usd, nan), 0), toString(model),
            toUInt64(input_tokens - least(cached_input_tokens, input_tokens)), toUInt64(least(cached_input_tokens, input_tokens)),
            toUInt64(output_tokens)))) AS s
    FROM priced
    WHERE step_kind NOT IN ('', 'run')
    GROUP BY run_id
)`;

/**
 * The first and last span start of a set of runs (and their span count),
 * read from the per-run aggregates each part of `spans` keeps (migration
 * 15): the finaliser reads only that time range, so the primary key and the
 * partitions skip the hours and days without those runs' spans. Asked by
 * run id alone, the spans of a few hundred random ids sit in nearly every
 * granule of every hour kept.
 */
export const RUNS_TIME_SQL = `SELECT toString(toUnixTimestamp64Nano(min(start_time))) AS first_ns,
    toString(toUnixTimestamp64Nano(max(start_time))) AS last_ns, count() AS spans
FROM spans
WHERE project_id = {projectId:String} AND run_id IN {runIds:Array(String)}`;

/**
 * Runs whose facts are missing or older than their spans (a span arrived
 * after the run was finalised, or was merged away), for a restart: compares
 * each run's span count and latest ingest time with what its facts saw
 * (facts computed from spans in hand record a time at or after their
 * spans' ingest, not the stored one: a later ingest time is what is stale).
 * `runs`, when given, is a condition on (project_id, run_id) that both
 * sides are read under.
 */
function staleRunsSql(runs?: string): string {
  const where = runs === undefined ? '' : `\n    WHERE ${runs}`;
  return `SELECT s.project_id AS project_id, s.run_id AS run_id
FROM (
    SELECT project_id, run_id, count() AS span_count, max(ingested_at) AS ingested_max
    FROM spans${where}
    GROUP BY project_id, run_id
) AS s
LEFT JOIN (
    SELECT project_id, run_id, span_count, ingested_max, 1 AS present
    FROM run_facts FINAL${where}
) AS f ON f.project_id = s.project_id AND f.run_id = s.run_id
WHERE f.present = 0 OR f.span_count != s.span_count OR f.ingested_max < s.ingested_max
SETTINGS join_use_nulls = 0`;
}

/** The stale runs among all runs stored: its cost follows the runs stored (one row per run and part of `spans`, migration 15). */
export const STALE_RUNS_SQL = staleRunsSql();

/**
 * The runs with a span ingested at or after `since` (epoch ms, storage
 * clock): the granules of `spans` ingested before it are skipped (the skip
 * index of migration 17), so its cost follows what arrived since.
 */
export const RUNS_INGESTED_SINCE_SQL = `SELECT DISTINCT project_id, run_id
FROM spans
WHERE ingested_at >= fromUnixTimestamp64Milli({since:Int64}, 'UTC')`;

/** The stale runs among some runs, (project, run) pairs (RUNS_INGESTED_SINCE_SQL's): each side read by its primary key. */
export const STALE_RUNS_OF_SQL = staleRunsSql('(project_id, run_id) IN {runs:Array(Tuple(String, String))}');
