import type { AnalyticsFilter } from '../analytics/AnalyticsFilter.js';
import { filterShape } from '../sql/latencySql.js';
import { LOOP_THRESHOLD_DEFINITIONS, LOOP_THRESHOLD_NAMES } from '@telltale/semconv';
import { DEFAULT_LOOP_THRESHOLDS, type LoopThresholds } from '../analytics/loopTypes.js';
import { priceOf } from '../sql/sqlParts.js';

/**
 * Reading the run facts instead of the spans. A query can when the filter
 * selects whole runs (time window, service, agent, run ids) and its loop
 * thresholds are the ones the facts were detected with; step, tool, model
 * and attribute filters look inside runs, so those queries read the spans.
 *
 * The window: a run belongs to it when its first span starts in it, and then
 * all of its spans count. (The span queries keep the spans that start in the
 * window; the two agree for every run that lies inside the window.)
 */
export function readsRunFacts(filter: AnalyticsFilter, thresholds?: LoopThresholds): boolean {
  if (filter.recompute === true || filterShape(filter).spanFilter) return false;
  return (
    thresholds === undefined ||
    RUN_FACT_THRESHOLD_NAMES.every((name) => thresholds[name] === DEFAULT_LOOP_THRESHOLDS[name])
  );
}

/** The loop thresholds the run facts are detected with (their defaults; the others apply at query time). */
const RUN_FACT_THRESHOLD_NAMES = LOOP_THRESHOLD_NAMES.filter((name) => LOOP_THRESHOLD_DEFINITIONS[name].inRunFacts);

/** Those thresholds as the finaliser's bound parameters. */
export function runFactThresholdParams(): Record<string, number> {
  return Object.fromEntries(RUN_FACT_THRESHOLD_NAMES.map((name) => [name, DEFAULT_LOOP_THRESHOLDS[name]]));
}

/** Rows of a facts table (`table`, read FINAL: one current row per key) in the filter's window and runs. */
function factsWhere(prefix: string): string {
  return `${prefix}project_id = {projectId:String}
      AND ${prefix}run_start >= {from:DateTime64(9, 'UTC')}
      AND ${prefix}run_start < {to:DateTime64(9, 'UTC')}
      AND (empty({runIds:Array(String)}) OR has({runIds:Array(String)}, ${prefix}run_id))
      AND ({service:String} = '' OR ${prefix}service = {service:String})
      AND ({agent:String} = '' OR ${prefix}agent = {agent:String})`;
}

/** Σ over a usage row's models of tokens × the table's prices; a model without a price adds 0 (and counts as unpriced). */
export function tablePricedSql(models: string, uncached: string, cached: string, output: string): string {
  return `arraySum(arrayMap(v -> if(isNaN(v), 0, v), arrayMap((m, i, c, o) ->
            ${priceOf('priceInput', 'm')} * i + ${priceOf('priceCached', 'm')} * c + ${priceOf('priceOutput', 'm')} * o,
            ${models}, ${uncached}, ${cached}, ${output})))`;
}

/**
 * `runs` from the run facts, with the columns of RUNS_CTE that run-level
 * queries read (so their SELECTs serve both sources), plus the facts' own:
 * groups, never_ok, loop_kinds, loop_dets, cause_base, self_times and the usage arrays.
 */
export const FACT_RUNS_CTE = `runs AS (
    SELECT
        run_id, agent, service, outcome, run_start, run_end, duration_ns AS run_duration_ns, steps, root_error_type,
        explicit_cost + ${tablePricedSql('usage_models', 'usage_uncached', 'usage_cached', 'usage_output')} AS run_cost,
        input_tokens AS run_input_tokens, output_tokens AS run_output_tokens, cached_input_tokens AS run_cached_input_tokens,
        arraySum((m, n) -> if(isNaN(${priceOf('priceInput', 'm')}), n, 0), usage_models, usage_spans) AS unpriced_spans,
        groups, never_ok, loop_kinds, loop_dets, cause_base, self_times,
        usage_models, usage_uncached, usage_cached, usage_output, usage_spans, session_id
    FROM run_facts FINAL
    WHERE ${factsWhere('')}
      AND ({session:String} = '' OR session_id = {session:String})
)`;

/** Completed runs' step facts of the window, one current row per (run, step name). */
export const FACT_STEPS_CTE = `fact_steps AS (
    SELECT agent, service, step_name, step_kind, outcome, groups AS g_n, first_ok AS g_first_ok, recovered AS g_recovered,
        attempts AS n_attempts, ok_attempts AS n_ok, retry_ns AS r_ns,
        retry_explicit_cost + ${tablePricedSql('retry_models', 'retry_uncached', 'retry_cached', 'retry_output')} AS r_cost
    FROM run_step_facts FINAL
    WHERE ${factsWhere('')} AND outcome != 'incomplete'
)`;
