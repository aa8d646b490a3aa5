import type { Migration } from './Migration.js';

/** Name of the per-minute step rollup (read by the rollup-backed metric queries). */
export const SPAN_ROLLUP_TABLE = 'span_rollup_1m';

/**
 * The DDSketch state the rollup keeps per minute: the same function, relative
 * accuracy and levels as the raw path's DIGEST_QUANTILES_SQL, so merged states
 * give the same percentiles as the sketch built over the raw spans.
 */
export const ROLLUP_DIGEST_FN = 'quantilesDD(0.01, 0.5, 0.9, 0.95, 0.99, 0.999)';

/** The rollup's aggregate columns, as built from spans (shared by the view, the backfill and the queries' window edges). */
export const ROLLUP_AGGREGATES_SQL = `count() AS spans,
    sum(duration_ns) AS dur_sum,
    max(duration_ns) AS dur_max,
    ${ROLLUP_DIGEST_FN.replace('quantilesDD(', 'quantilesDDState(')}(duration_ns) AS dur_dd,
    sum(ifNull(cost_usd, 0)) AS explicit_cost,
    countIf(input_tokens + output_tokens > 0 OR ifNull(cost_usd, 0) > 0) AS billed,
    sum(input_tokens) AS in_tok,
    sum(least(cached_input_tokens, input_tokens)) AS cached_tok,
    sum(output_tokens) AS out_tok,
    countIf(cost_usd IS NULL AND input_tokens + output_tokens > 0) AS np_spans,
    sumIf(input_tokens - least(cached_input_tokens, input_tokens), cost_usd IS NULL) AS np_uncached,
    sumIf(least(cached_input_tokens, input_tokens), cost_usd IS NULL) AS np_cached,
    sumIf(output_tokens, cost_usd IS NULL) AS np_out`;

const COLUMNS =
  '(project_id, step_kind, step_name, tool_name, model, minute, spans, dur_sum, dur_max, dur_dd, explicit_cost, billed, in_tok, cached_tok, out_tok, np_spans, np_uncached, np_cached, np_out)';

const SELECT = `SELECT project_id, step_kind, step_name, tool_name, model, toStartOfMinute(start_time) AS minute,
    ${ROLLUP_AGGREGATES_SQL}`;

const GROUP = `GROUP BY project_id, step_kind, step_name, tool_name, model, minute`;

/**
 * Dashboard rollup: step spans (step kind not '' or 'run') per minute of start
 * and (project, step kind, step name, tool, model), maintained at insert time
 * by a materialized view on `spans`, so the step / tool / model percentiles,
 * series and cost breakdowns read one row per group and minute instead of
 * every span. Counts, sums and max are exact; `dur_dd` is a DDSketch state
 * (relative accuracy 0.01) that merges by adding bins. Cost stays a query-time
 * computation: explicit costs are summed, and the token sums of spans without
 * an explicit cost (`np_*`) are priced per model when read.
 *
 * Every column outside the sorting key is a (Simple)AggregateFunction, as
 * ClickHouse 26 requires of an AggregatingMergeTree. The view sees inserted
 * blocks, not merges: a span re-sent in another insert is counted again (as
 * the raw path does until the ReplacingMergeTree merges it away), while a
 * retried insert with the same deduplication token is dropped for the view
 * too (`deduplicate_blocks_in_dependent_materialized_views`, on by default,
 * with this table's own deduplication window).
 *
 * The backfill (INSERT … SELECT of every stored span) runs before the view
 * is created, so no span is counted by both; spans inserted between the two
 * statements would be missed, so the migration must run while nothing
 * ingests (the server migrates before it ingests; on a cluster, run
 * `telltale migrate` before starting collectors).
 */
export const m0011SpanRollups: Migration = {
  version: 11,
  name: 'span_rollups',
  statements: [
    `CREATE TABLE IF NOT EXISTS ${SPAN_ROLLUP_TABLE}
(
    project_id LowCardinality(String),
    step_kind LowCardinality(String),
    step_name LowCardinality(String),
    tool_name LowCardinality(String),
    model LowCardinality(String),
    minute DateTime('UTC'),
    spans SimpleAggregateFunction(sum, UInt64),
    dur_sum SimpleAggregateFunction(sum, Int64),
    dur_max SimpleAggregateFunction(max, Int64),
    dur_dd AggregateFunction(${ROLLUP_DIGEST_FN}, Int64),
    explicit_cost SimpleAggregateFunction(sum, Float64),
    billed SimpleAggregateFunction(sum, UInt64),
    in_tok SimpleAggregateFunction(sum, UInt64),
    cached_tok SimpleAggregateFunction(sum, UInt64),
    out_tok SimpleAggregateFunction(sum, UInt64),
    np_spans SimpleAggregateFunction(sum, UInt64),
    np_uncached SimpleAggregateFunction(sum, UInt64),
    np_cached SimpleAggregateFunction(sum, UInt64),
    np_out SimpleAggregateFunction(sum, UInt64)
)
ENGINE = AggregatingMergeTree
PARTITION BY toDate(minute)
ORDER BY (project_id, step_kind, step_name, tool_name, model, minute)
TTL minute + INTERVAL 30 DAY
SETTINGS ttl_only_drop_parts = 1, non_replicated_deduplication_window = 1000`,
    `INSERT INTO ${SPAN_ROLLUP_TABLE} ${COLUMNS}
${SELECT}
FROM spans
WHERE step_kind NOT IN ('', 'run')
${GROUP}`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${SPAN_ROLLUP_TABLE}_mv TO ${SPAN_ROLLUP_TABLE} AS
${SELECT}
FROM spans
WHERE step_kind NOT IN ('', 'run')
${GROUP}`,
  ],
};
