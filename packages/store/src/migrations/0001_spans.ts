import type { Migration } from './Migration.js';

/**
 * The canonical span table. Sort key: project, hour, run, span — one project's
 * recent runs are contiguous, and a run's spans sit together within an hour.
 * Bloom filters make lookups by trace or run id skip most granules.
 * ReplacingMergeTree on the full key makes a re-sent span collapse on merge.
 */
export const m0001Spans: Migration = {
  version: 1,
  name: 'spans',
  statements: [
    `CREATE TABLE IF NOT EXISTS spans
(
    project_id LowCardinality(String),
    trace_id String CODEC(ZSTD(1)),
    span_id String CODEC(ZSTD(1)),
    parent_span_id String CODEC(ZSTD(1)),
    trace_state String CODEC(ZSTD(1)),
    run_id String CODEC(ZSTD(1)),
    is_run_root Bool,
    service_name LowCardinality(String),
    name String CODEC(ZSTD(1)),
    span_kind UInt8,
    step_kind LowCardinality(String),
    step_name LowCardinality(String),
    attempt UInt16,
    tool_name LowCardinality(String),
    tool_args_hash String CODEC(ZSTD(1)),
    state_hash String CODEC(ZSTD(1)),
    output_hash String CODEC(ZSTD(1)),
    side_effect Bool,
    model LowCardinality(String),
    provider LowCardinality(String),
    input_tokens UInt64,
    output_tokens UInt64,
    cached_input_tokens UInt64,
    cost_usd Nullable(Float64),
    start_time DateTime64(9, 'UTC') CODEC(Delta, ZSTD(1)),
    end_time DateTime64(9, 'UTC') CODEC(Delta, ZSTD(1)),
    duration_ns Int64 MATERIALIZED toUnixTimestamp64Nano(end_time) - toUnixTimestamp64Nano(start_time),
    status_code UInt8,
    status_message String CODEC(ZSTD(1)),
    error_type LowCardinality(String),
    run_outcome LowCardinality(String),
    attributes Map(LowCardinality(String), String) CODEC(ZSTD(1)),
    attribute_types Map(LowCardinality(String), LowCardinality(String)),
    resource_attributes Map(LowCardinality(String), String) CODEC(ZSTD(1)),
    scope_name LowCardinality(String),
    scope_version LowCardinality(String),
    events Array(Tuple(time DateTime64(9, 'UTC'), name String, attributes String)) CODEC(ZSTD(1)),
    links Array(Tuple(trace_id String, span_id String, trace_state String, attributes String)) CODEC(ZSTD(1)),
    dropped_attributes_count UInt32,
    dropped_events_count UInt32,
    dropped_links_count UInt32,
    ingested_at DateTime64(3, 'UTC') DEFAULT now64(3),
    INDEX idx_trace_id trace_id TYPE bloom_filter(0.001) GRANULARITY 1,
    INDEX idx_run_id run_id TYPE bloom_filter(0.001) GRANULARITY 1
)
ENGINE = ReplacingMergeTree(ingested_at)
PARTITION BY toDate(start_time)
ORDER BY (project_id, toStartOfHour(start_time), run_id, span_id)
TTL toDateTime(start_time) + INTERVAL 30 DAY
SETTINGS index_granularity = 8192, ttl_only_drop_parts = 1, non_replicated_deduplication_window = 1000`,
  ],
};
