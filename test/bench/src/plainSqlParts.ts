/**
 * Fragments of the hand-written baseline SQL: each baseline reads the
 * `spans` table directly, computes exactly the numbers its facade method
 * reports, and touches only the columns those numbers need. Parameters are
 * bound like the store's (`plainParams`).
 */
import { type PriceTable } from '@telltale/store';
import { nanosToDateTime64 } from '@telltale/store/testing';

export interface PlainScope {
  projectId: string;
  fromUnixNano: bigint;
  toUnixNano: bigint;
}

export function plainParams(scope: PlainScope, prices: PriceTable): Record<string, unknown> {
  return {
    projectId: scope.projectId,
    from: nanosToDateTime64(scope.fromUnixNano),
    to: nanosToDateTime64(scope.toUnixNano),
    models: prices.models,
    pIn: prices.input,
    pOut: prices.output,
    pCached: prices.cachedInput,
  };
}

/** The project's spans in the window. */
export const SCOPE = `project_id = {projectId:String} AND start_time >= {from:DateTime64(9, 'UTC')} AND start_time < {to:DateTime64(9, 'UTC')}`;

/** Steps: spans with a step kind other than the run's. */
export const IS_STEP = `step_kind NOT IN ('', 'run')`;

/** Root candidates and their preference: kind `run` first, then the collector's root flag; latest start wins a tie. */
export const IS_ROOT = `(step_kind = 'run' OR is_run_root)`;
export const ROOT_KEY = `(step_kind = 'run', -toUnixTimestamp64Nano(start_time))`;

function price(array: string): string {
  return `transform(model, {models:Array(String)}, {${array}:Array(Float64)}, transform(replaceRegexpOne(model, '-(\\\\d{4}-\\\\d{2}-\\\\d{2}|\\\\d{8})$', ''), {models:Array(String)}, {${array}:Array(Float64)}, nan))`;
}

/** A span's cost, NaN when its usage has no price; 0 on aggregate kinds (run, handoff, none). */
export const RAW_COST = `if(step_kind IN ('', 'run', 'handoff'), 0, ifNull(cost_usd, if(input_tokens + output_tokens = 0, 0,
    (input_tokens - least(cached_input_tokens, input_tokens)) * ${price('pIn')}
    + least(cached_input_tokens, input_tokens) * ${price('pCached')}
    + output_tokens * ${price('pOut')})))`;

/** Usage counts on every kind but the aggregate ones. */
export const USAGE_COUNTED = `step_kind NOT IN ('', 'run', 'handoff')`;

/**
 * One row per completed run (a root arrived): agent, service, failed, root
 * start and duration. Reads root spans only.
 */
export const PLAIN_ROOTS = `roots AS (
    SELECT run_id,
        argMax(name, k) AS agent, argMax(service_name, k) AS service,
        argMax(status_code = 2 OR run_outcome = 'failure', k) AS failed,
        argMax(start_time, k) AS root_start, argMax(duration_ns, k) AS root_ns
    FROM (SELECT run_id, name, service_name, status_code, run_outcome, start_time, duration_ns, ${ROOT_KEY} AS k
          FROM spans WHERE ${SCOPE} AND ${IS_ROOT})
    GROUP BY run_id
)`;

/** The span columns the ledger keeps; `raw` adds more. */
const LEDGER_COLS =
  'run_id, parent_span_id, span_id, start_time, end_time, step_name, step_kind, attempt, status_code, duration_ns';

/**
 * Attempt-group contributions per step span (RELIABILITY-MATH "Attempt"):
 * numbered attempts need no ordering (attempt ≤ 1 opens a group, an OK
 * retry recovers it); an unnumbered span retries the sibling before it (by
 * start, end, span id) only when that one has the same name and failed
 * (window functions over those spans only). `raw` lists further span
 * columns to read; `computed` further expressions over them and `g_start`
 * (with a leading comma); `where` further conditions (with a leading AND).
 */
export function plainLedger(raw: readonly string[] = [], computed = '', where = ''): string {
  const read = [LEDGER_COLS, ...raw].join(', ');
  const out = `run_id, step_name, step_kind, ok, duration_ns${computed}`;
  const sib = 'PARTITION BY run_id, parent_span_id ORDER BY start_time, end_time, span_id';
  return `ledger AS (
    SELECT ${out}, g_first_ok, g_rec, g_start
    FROM (
        SELECT ${read}, status_code != 2 AS ok, attempt <= 1 AS g_start, g_start AND ok AS g_first_ok, attempt > 1 AND ok AS g_rec
        FROM spans WHERE ${SCOPE}${where} AND ${IS_STEP} AND attempt > 0
    )
    UNION ALL
    SELECT ${out}, g_start AND ok AS g_first_ok, NOT g_start AND ok AS g_rec, g_start
    FROM (
        SELECT ${read}, status_code != 2 AS ok,
            row_number() OVER w = 1 OR step_name != lagInFrame(step_name, 1, '') OVER w
                OR lagInFrame(toUInt8(status_code != 2), 1, 1) OVER w = 1 AS g_start
        FROM spans WHERE ${SCOPE}${where} AND ${IS_STEP} AND attempt = 0
        WINDOW w AS (${sib} ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
    )
)`;
}

/** Nearest-rank exact percentiles (level − 1e-12: see the store's latencySql.ts). */
export function exactLevels(levels: readonly number[]): string {
  return levels.map((p) => (p - 1e-12).toFixed(12)).join(', ');
}
