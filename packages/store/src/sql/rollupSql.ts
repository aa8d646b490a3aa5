import type { AnalyticsFilter } from '../analytics/AnalyticsFilter.js';
import { ROLLUP_AGGREGATES_SQL, ROLLUP_DIGEST_FN, SPAN_ROLLUP_TABLE } from '../migrations/0011_span_rollups.js';
import type { QueryParams } from './sqlParts.js';

const NS_PER_MINUTE = 60_000_000_000n;
const NS_PER_SECOND = 1_000_000_000n;

/** The whole minutes of a window the rollup serves: [from, to) in ns, minute-aligned; from < to. */
export interface RollupMinutes {
  fromNs: bigint;
  toNs: bigint;
}

/**
 * Whether the rollup can answer a step-level query under this filter, and
 * which whole minutes it serves (the window's edges come from the spans).
 * It cannot when the filter selects runs by their root (service, agent,
 * session, run ids), filters on attributes, asks for a recomputation, or the
 * window holds no whole minute.
 */
export function rollupMinutes(f: AnalyticsFilter): RollupMinutes | undefined {
  const runScoped =
    (f.service ?? '') !== '' || (f.agent ?? '') !== '' || (f.session ?? '') !== '' || (f.runIds ?? []).length > 0;
  if (runScoped || f.recompute === true || Object.keys(f.attributes ?? {}).length > 0) return undefined;
  const below = (ns: bigint): bigint => ((ns % NS_PER_MINUTE) + NS_PER_MINUTE) % NS_PER_MINUTE;
  const fromNs = below(f.fromUnixNano) === 0n ? f.fromUnixNano : f.fromUnixNano - below(f.fromUnixNano) + NS_PER_MINUTE;
  const toNs = f.toUnixNano - below(f.toUnixNano);
  return fromNs < toNs ? { fromNs, toNs } : undefined;
}

/** Parameters of ROLLUP_SRC_CTE (besides filterParams): the served minutes, as DateTime seconds. */
export function rollupParams(m: RollupMinutes): QueryParams {
  return { rollFrom: String(m.fromNs / NS_PER_SECOND), rollTo: String(m.toNs / NS_PER_SECOND) };
}

const KEY_MATCH_SQL = `({stepName:String} = '' OR step_name = {stepName:String})
      AND ({tool:String} = '' OR tool_name = {tool:String})
      AND ({model:String} = '' OR model = {model:String})`;

const CAST_COLUMNS = `toUInt64(spans) AS spans, toInt64(dur_sum) AS dur_sum, toInt64(dur_max) AS dur_max, dur_dd,
        toFloat64(explicit_cost) AS explicit_cost, toUInt64(billed) AS billed, toUInt64(in_tok) AS in_tok,
        toUInt64(cached_tok) AS cached_tok, toUInt64(out_tok) AS out_tok, toUInt64(np_spans) AS np_spans,
        toUInt64(np_uncached) AS np_uncached, toUInt64(np_cached) AS np_cached, toUInt64(np_out) AS np_out`;

/**
 * `rollup_src`: the matching step spans of the window as rollup rows, one per
 * (step kind, step name, tool, model, minute) and source: the rollup's rows
 * for the whole minutes, plus the same aggregates built from the spans in the
 * window's partial minutes at each end. Reading it needs GROUP BY with sums,
 * max and `…Merge` of `dur_dd` (rows of one key and minute are not collapsed
 * until the AggregatingMergeTree merges them).
 */
export const ROLLUP_SRC_CTE = `rollup_src AS (
    SELECT step_kind, step_name, tool_name, model, minute, ${CAST_COLUMNS}
    FROM ${SPAN_ROLLUP_TABLE}
    WHERE project_id = {projectId:String}
      AND minute >= toDateTime({rollFrom:Int64}, 'UTC') AND minute < toDateTime({rollTo:Int64}, 'UTC')
      AND ${KEY_MATCH_SQL}
    UNION ALL
    SELECT step_kind, step_name, tool_name, model, toDateTime(toStartOfMinute(start_time), 'UTC') AS minute, ${ROLLUP_AGGREGATES_SQL}
    FROM spans
    WHERE project_id = {projectId:String}
      AND step_kind NOT IN ('', 'run')
      AND ((start_time >= {from:DateTime64(9, 'UTC')} AND start_time < fromUnixTimestamp64Nano({rollFrom:Int64} * 1000000000, 'UTC'))
        OR (start_time >= fromUnixTimestamp64Nano({rollTo:Int64} * 1000000000, 'UTC') AND start_time < {to:DateTime64(9, 'UTC')}))
      AND ${KEY_MATCH_SQL}
    GROUP BY step_kind, step_name, tool_name, model, minute
)`;

/** Merges `dur_dd` states into the same percentiles the raw path's DIGEST_QUANTILES_SQL gives. */
export const ROLLUP_DIGEST_MERGE_SQL = ROLLUP_DIGEST_FN.replace('quantilesDD(', 'quantilesDDMerge(');
