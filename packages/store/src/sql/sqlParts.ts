import { nanosToDateTime64 } from '../time.js';
import type { AnalyticsFilter, PriceTable } from '../analytics/AnalyticsFilter.js';

/**
 * Building blocks shared by the analytics queries. Every user value is a
 * bound parameter; the SQL text only ever varies by which fixed fragments are
 * included, never by user input.
 */
export type QueryParams = Record<string, unknown>;

/** Step kinds whose spans carry usage that is already counted by their children. */
/** Step kinds whose usage repeats their children's (a run, a handoff, a span of no kind): never priced. */
export const AGGREGATE_KINDS_SQL = "('', 'run', 'handoff')";

export function filterParams(f: AnalyticsFilter, prices: PriceTable): QueryParams {
  const attrs = Object.entries(f.attributes ?? {});
  return {
    projectId: f.projectId,
    from: nanosToDateTime64(f.fromUnixNano),
    to: nanosToDateTime64(f.toUnixNano),
    service: f.service ?? '',
    agent: f.agent ?? '',
    session: f.session ?? '',
    stepName: f.stepName ?? '',
    tool: f.tool ?? '',
    model: f.model ?? '',
    attrKeys: attrs.map(([k]) => k),
    attrValues: attrs.map(([, v]) => v),
    runIds: f.runIds ?? [],
    ...priceParams(prices),
  };
}

/** The price table as the query parameters `priceOf` reads. */
export function priceParams(prices: PriceTable): QueryParams {
  return {
    priceModels: prices.models,
    priceInput: prices.input,
    priceOutput: prices.output,
    priceCached: prices.cachedInput,
  };
}

/**
 * Span-level predicate for the step / tool / model / attribute filters. The
 * `empty(...)` guard folds to a constant without attribute filters, so the
 * attributes Map column is not read at all (it is the widest column).
 */
export const SPAN_MATCH_SQL = `(({stepName:String} = '' OR step_name = {stepName:String})
    AND ({tool:String} = '' OR tool_name = {tool:String})
    AND ({model:String} = '' OR model = {model:String})
    AND (empty({attrKeys:Array(String)}) OR arrayAll((k, v) -> attributes[k] = v, {attrKeys:Array(String)}, {attrValues:Array(String)})))`;

/** A span's tokens at the price table's prices: uncached input, cached input, output; NaN when no price covers its model. */
export const TOKENS_PRICED_SQL = `(input_tokens - least(cached_input_tokens, input_tokens)) * ${priceOf('priceInput')}
                  + least(cached_input_tokens, input_tokens) * ${priceOf('priceCached')}
                  + output_tokens * ${priceOf('priceOutput')}`;

/**
 * Price lookup by exact model name, else by the name without a date suffix
 * (`gpt-4o-2024-08-06` → `gpt-4o`). Functions on LowCardinality columns run
 * once per distinct value, so this costs little.
 */
export function priceOf(array: 'priceInput' | 'priceCached' | 'priceOutput', model = 'model'): string {
  return `transform(${model}, {priceModels:Array(String)}, {${array}:Array(Float64)},
        transform(replaceRegexpOne(${model}, '-(\\\\d{4}-\\\\d{2}-\\\\d{2}|\\\\d{8})$', ''), {priceModels:Array(String)}, {${array}:Array(Float64)}, nan))`;
}

/**
 * The project's spans in the window, with:
 * - `cost`: the span's own cost attribute, else tokens × the price table
 *   (non-cached input at the input price, cached input at the cache price,
 *   output at the output price); 0 on aggregate spans (run, handoff, or no
 *   step kind), whose usage repeats their children's.
 * - `unpriced`: usage that no price covers.
 * - `ok`: not ERROR (UNSET counts as success, as for run outcomes).
 */
export const PRICED_SPANS_CTE = `priced AS (
    SELECT
        run_id, trace_id, span_id, parent_span_id, name, service_name, is_run_root, step_kind, step_name, attempt,
        tool_name, tool_args_hash, state_hash, output_hash, side_effect, model, status_code, error_type, run_outcome,
        start_time, end_time, duration_ns, input_tokens, output_tokens, cached_input_tokens, cost_usd, ingested_at, session_id,
        status_code != 2 AS ok,
        multiIf(step_kind = 'run', 2, is_run_root, 1, 0) AS root_rank,
        (root_rank, -toUnixTimestamp64Nano(start_time)) AS root_key,
        step_kind NOT IN ${AGGREGATE_KINDS_SQL} AS usage_counted,
        if(usage_counted,
           ifNull(cost_usd,
               if(input_tokens + output_tokens = 0, 0, ${TOKENS_PRICED_SQL})),
           0) AS raw_cost,
        if(isNaN(raw_cost), 0, raw_cost) AS cost,
        usage_counted AND isNaN(raw_cost) AS unpriced,
        ${SPAN_MATCH_SQL} AS span_match
    FROM spans
    WHERE project_id = {projectId:String}
      AND start_time >= {from:DateTime64(9, 'UTC')}
      AND start_time < {to:DateTime64(9, 'UTC')}
      AND (empty({runIds:Array(String)}) OR has({runIds:Array(String)}, run_id))
)`;

/**
 * One row per run (needs PRICED_SPANS_CTE). The root is the span of step kind
 * `run`, else one the collector marked as a run root; no root = incomplete
 * (not ended, or ended beyond the window). Runs are kept when their root
 * matches the service / agent filters and any span matches the span filters.
 *
 * Built from two aggregations joined by run: `run_roots` reads only root
 * spans (about 1% of rows) for the argMax-by-rank columns, `run_totals` does
 * cheap sums over every span. One GROUP BY doing both costs several times more.
 */
/** Root-derived columns per run, from root spans only (needs PRICED_SPANS_CTE). */
export const RUN_ROOTS_CTE = `run_roots AS (
    SELECT
        run_id,
        max(root_rank) AS best_rank,
        argMax(name, root_key) AS root_name,
        argMax(service_name, root_key) AS root_service,
        argMax(status_code, root_key) AS root_status,
        argMax(run_outcome, root_key) AS root_outcome,
        argMax(error_type, root_key) AS root_error_type,
        argMax(duration_ns, root_key) AS root_duration_ns,
        argMax(start_time, root_key) AS root_start,
        argMax(trace_id, root_key) AS root_trace_id
    FROM priced
    WHERE root_rank > 0
    GROUP BY run_id
)`;

export const RUNS_CTE = `${RUN_ROOTS_CTE},
run_totals AS (
    SELECT
        run_id,
        any(service_name) AS any_service,
        min(start_time) AS run_start,
        max(end_time) AS run_end,
        countIf(step_kind NOT IN ('', 'run')) AS steps,
        count() AS span_count,
        sum(cost) AS run_cost,
        sumIf(input_tokens, usage_counted) AS run_input_tokens,
        sumIf(output_tokens, usage_counted) AS run_output_tokens,
        sumIf(least(cached_input_tokens, input_tokens), usage_counted) AS run_cached_input_tokens,
        countIf(unpriced) AS unpriced_spans,
        countIf(span_match) AS matching_spans,
        argMin(trace_id, start_time) AS first_trace_id,
        argMin(name, start_time) AS first_name,
        argMinIf(error_type, start_time, error_type != '') AS first_error_type,
        argMinIf(session_id, start_time, session_id != '') AS session_id
    FROM priced
    GROUP BY run_id
),
runs AS (
    SELECT
        t.run_id AS run_id,
        ifNull(rr.best_rank, 0) AS best_rank,
        if(best_rank > 0, rr.root_name, '') AS agent,
        if(best_rank > 0, rr.root_service, t.any_service) AS service,
        rr.root_status AS root_status,
        rr.root_outcome AS root_outcome,
        if(best_rank > 0, rr.root_error_type, '') AS root_error_type,
        multiIf(best_rank = 0, 'incomplete', root_status = 2 OR root_outcome = 'failure', 'failure', 'success') AS outcome,
        t.run_start AS run_start,
        t.run_end AS run_end,
        if(best_rank > 0, rr.root_duration_ns, toUnixTimestamp64Nano(t.run_end) - toUnixTimestamp64Nano(t.run_start)) AS run_duration_ns,
        t.steps AS steps,
        t.span_count AS span_count,
        t.run_cost AS run_cost,
        t.run_input_tokens AS run_input_tokens,
        t.run_output_tokens AS run_output_tokens,
        t.run_cached_input_tokens AS run_cached_input_tokens,
        t.unpriced_spans AS unpriced_spans,
        -- for the runs list (unused columns cost nothing: ClickHouse prunes them)
        if(best_rank > 0, rr.root_trace_id, t.first_trace_id) AS trace_id,
        if(best_rank > 0, rr.root_name, t.first_name) AS display_name,
        if(root_error_type != '', root_error_type, t.first_error_type) AS display_error_type,
        t.matching_spans AS matching_spans,
        t.session_id AS session_id
    FROM run_totals AS t
    LEFT JOIN run_roots AS rr ON rr.run_id = t.run_id
    WHERE ({service:String} = '' OR service = {service:String})
      AND ({agent:String} = '' OR agent = {agent:String})
      AND ({session:String} = '' OR session_id = {session:String})
      AND matching_spans > 0
    SETTINGS join_use_nulls = 1
)`;

/**
 * Completed runs (a root has arrived) that match the service / agent filters,
 * with agent and outcome: enough for step-level metrics, and cheap, since it
 * reads root spans only (needs PRICED_SPANS_CTE and RUN_ROOTS_CTE).
 */
export const COMPLETED_RUNS_CTE = `completed_runs AS (
    SELECT
        run_id,
        root_name AS agent,
        root_service AS service,
        if(root_status = 2 OR root_outcome = 'failure', 'failure', 'success') AS outcome
    FROM run_roots
    WHERE ({service:String} = '' OR root_service = {service:String})
      AND ({agent:String} = '' OR root_name = {agent:String})
)`;

/**
 * One row per attempt group, for views that need each group (a run's detail,
 * small candidate sets). It sorts every step span with window functions, which
 * is far too slow over millions of spans: aggregate over STEP_LEDGER_CTE instead.
 *
 * Attempt groups (needs PRICED_SPANS_CTE and RUNS_CTE): step spans of kept
 * runs, grouped per RELIABILITY-MATH "Attempt". Among siblings (same run and
 * parent) in start order, a span starts a new group when its step name
 * differs from the previous sibling's, when its attempt is 1, or when its
 * attempt does not exceed the previous one; so attempts 1..n of a retry form
 * one group, a repeated call with attempt 1 each time forms several. A span
 * without an attempt number continues a group only after a FAILED sibling of
 * the same name that has none either (STEP_LEDGER_CTE's rule). Siblings are
 * ordered by start, end, span id.
 */
export const ATTEMPT_GROUPS_CTE = `step_spans AS (
    SELECT
        p.run_id AS run_id, parent_span_id, span_id, step_name, step_kind, attempt, start_time, ok, duration_ns, cost,
        tool_name, model, side_effect, span_match, error_type,
        r.agent AS agent, r.service AS service, r.outcome AS run_outcome_value,
        lagInFrame(step_name, 1, '') OVER sib AS prev_name,
        lagInFrame(attempt, 1, toUInt16(0)) OVER sib AS prev_attempt,
        lagInFrame(toUInt8(ok), 1, 1) OVER sib AS prev_ok,
        row_number() OVER sib AS sib_index
    FROM priced AS p
    INNER JOIN runs AS r ON r.run_id = p.run_id
    WHERE step_kind NOT IN ('', 'run')
    WINDOW sib AS (PARTITION BY p.run_id, parent_span_id ORDER BY start_time, end_time, span_id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
),
step_marked AS (
    SELECT *,
        sum(toUInt32(sib_index = 1 OR step_name != prev_name OR attempt = 1 OR (attempt > 0 AND attempt <= prev_attempt)
                     OR (attempt = 0 AND (prev_attempt > 0 OR prev_ok = 1))))
            OVER (PARTITION BY run_id, parent_span_id ORDER BY start_time, end_time, span_id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS group_seq
    FROM step_spans
),
attempt_groups AS (
    SELECT
        run_id, parent_span_id, group_seq,
        any(step_name) AS step_name,
        any(step_kind) AS step_kind,
        any(agent) AS agent,
        any(service) AS service,
        any(run_outcome_value) AS run_outcome,
        min(start_time) AS group_start,
        count() AS attempts,
        countIf(ok) AS ok_attempts,
        argMin(ok, (start_time, end_time, span_id)) AS first_ok,
        ok_attempts > 0 AS any_ok,
        argMax(ok, (start_time, end_time, span_id)) AS last_ok,
        sum(duration_ns) - argMin(duration_ns, (start_time, end_time, span_id)) AS retry_extra_ns,
        sum(cost) - argMin(cost, (start_time, end_time, span_id)) AS retry_extra_cost,
        sum(cost) AS group_cost,
        max(span_match) AS group_match,
        any(tool_name) AS tool_name,
        any(model) AS model
    FROM step_marked
    GROUP BY run_id, parent_span_id, group_seq
)`;

/**
 * The attempt-group ledger (needs PRICED_SPANS_CTE): one row per step span
 * with its additive contribution to the group counts, so every group metric
 * is a plain sum and no query has to materialise groups:
 * - `g_start`: the span opens an attempt group;
 * - `g_first_ok`: it opens a group and is OK;
 * - `g_recovered`: it is the first OK attempt of a group whose first attempt failed.
 * Then groups = Σ g_start, first-attempt OK = Σ g_first_ok, recovered =
 * Σ g_recovered, eventually OK = first OK + recovered, never OK = groups −
 * first OK − recovered, retries = spans with g_start = 0.
 *
 * Spans with attempt numbers (our SDK, and any instrumentation that numbers
 * retries) need no ordering: attempt 1 opens a group and an OK attempt > 1 is
 * the recovery (retrying stops at the first success). A span without an
 * attempt number retries the sibling just before it (siblings ordered by
 * start, end, span id) only when that sibling has the same step name and
 * FAILED; after an OK sibling it opens a group of its own. So the group's
 * members before its last all failed, and an OK non-first member is its
 * recovery. That needs window functions — run over those spans only.
 */
export const STEP_LEDGER_CTE = `step_ledger AS (
    SELECT run_id, span_id, parent_span_id, step_name, step_kind, tool_name, model, start_time, duration_ns, cost, ok,
        span_match, side_effect, error_type, attempt, usage_counted, cost_usd, input_tokens, output_tokens, cached_input_tokens,
        attempt <= 1 AS g_start,
        attempt <= 1 AND ok AS g_first_ok,
        attempt > 1 AND ok AS g_recovered
    FROM priced
    WHERE step_kind NOT IN ('', 'run') AND attempt > 0
    UNION ALL
    SELECT run_id, span_id, parent_span_id, step_name, step_kind, tool_name, model, start_time, duration_ns, cost, ok,
        span_match, side_effect, error_type, attempt, usage_counted, cost_usd, input_tokens, output_tokens, cached_input_tokens,
        g_start,
        g_start AND ok AS g_first_ok,
        NOT g_start AND ok AS g_recovered
    FROM
    (
        SELECT *,
            row_number() OVER sib = 1 OR step_name != lagInFrame(step_name, 1, '') OVER sib
                OR lagInFrame(toUInt8(ok), 1, 1) OVER sib = 1 AS g_start
        FROM priced
        WHERE step_kind NOT IN ('', 'run') AND attempt = 0
        WINDOW sib AS (PARTITION BY run_id, parent_span_id ORDER BY start_time, end_time, span_id
                       ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
    )
)`;

/**
 * PRICED_SPANS_CTE and RUNS_CTE materialised (computed once per query, kept
 * in memory; needs enable_materialized_cte): for queries over a few runs'
 * spans that several CTEs read, so the spans are scanned once, not once per
 * reader. Never for a whole window: it would hold millions of rows.
 */
export const PRICED_ONCE_CTE = PRICED_SPANS_CTE.replace('priced AS (', 'priced AS MATERIALIZED (');
export const RUNS_ONCE_CTE = RUNS_CTE.replace('\nruns AS (', '\nruns AS MATERIALIZED (');
// invariant, checked at load (a plain Error): the templates above keep their shape
if (PRICED_ONCE_CTE === PRICED_SPANS_CTE || RUNS_ONCE_CTE === RUNS_CTE)
  throw new Error('sqlParts: the priced / runs CTEs changed shape');

/** Joins CTE fragments into one WITH clause. */
export function withClause(...ctes: string[]): string {
  return `WITH ${ctes.join(',\n')}`;
}
