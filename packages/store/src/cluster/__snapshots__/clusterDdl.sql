CREATE TABLE IF NOT EXISTS schema_migrations ON CLUSTER telltale
      (version UInt32, name String, applied_at DateTime64(3, 'UTC') DEFAULT now64(3))
      ENGINE = ReplicatedMergeTree('/clickhouse/tables/all/{database}/{table}', '{replica}') ORDER BY version;

-- 0001 spans
CREATE TABLE IF NOT EXISTS spans_local ON CLUSTER telltale
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
ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/{table}', '{replica}', ingested_at)
PARTITION BY toDate(start_time)
ORDER BY (project_id, toStartOfHour(start_time), run_id, span_id)
TTL toDateTime(start_time) + INTERVAL 30 DAY
SETTINGS index_granularity = 8192, ttl_only_drop_parts = 1, replicated_deduplication_window = 1000;

CREATE TABLE IF NOT EXISTS spans ON CLUSTER telltale AS spans_local
ENGINE = Distributed(telltale, currentDatabase(), spans_local, cityHash64(project_id, run_id));

-- 0002 model_prices
CREATE TABLE IF NOT EXISTS model_prices ON CLUSTER telltale
(
    project_id LowCardinality(String),
    model String,
    input_per_mtok Float64,
    cached_input_per_mtok Float64,
    output_per_mtok Float64,
    as_of String,
    source String,
    updated_at DateTime64(6, 'UTC'),
    is_deleted UInt8 DEFAULT 0
)
ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/all/{database}/{table}', '{replica}', updated_at, is_deleted)
ORDER BY (project_id, model);

-- 0003 run_facts
CREATE TABLE IF NOT EXISTS run_facts_local ON CLUSTER telltale
(
    project_id LowCardinality(String),
    run_id String,
    run_start DateTime64(9, 'UTC'),
    run_end DateTime64(9, 'UTC'),
    agent LowCardinality(String),
    service LowCardinality(String),
    outcome LowCardinality(String),
    duration_ns Int64,
    root_error_type LowCardinality(String),
    steps UInt32,
    span_count UInt32,
    groups UInt32,
    never_ok UInt32,
    explicit_cost Float64,
    usage_models Array(LowCardinality(String)),
    usage_uncached Array(UInt64),
    usage_cached Array(UInt64),
    usage_output Array(UInt64),
    usage_spans Array(UInt64),
    input_tokens UInt64,
    output_tokens UInt64,
    cached_input_tokens UInt64,
    loop_kinds Array(LowCardinality(String)),
    loop_dets Array(Tuple(code UInt8, key1 UInt64, key2 UInt64, count UInt32, anchor_ns Int64, anchor_key UInt64,
                          wasted Array(Tuple(start_ns Int64, span_key UInt64, duration_ns Int64, cost Float64)))),
    cause_base LowCardinality(String),
    self_times Array(Tuple(kind UInt8, step String, self_ns Int64)),
    ingested_max DateTime64(3, 'UTC'),
    version UInt64
)
ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/{table}', '{replica}', version)
ORDER BY (project_id, run_id)
TTL toDateTime(run_start) + INTERVAL 30 DAY;

CREATE TABLE IF NOT EXISTS run_facts ON CLUSTER telltale AS run_facts_local
ENGINE = Distributed(telltale, currentDatabase(), run_facts_local, cityHash64(project_id, run_id));

CREATE TABLE IF NOT EXISTS run_step_facts_local ON CLUSTER telltale
(
    project_id LowCardinality(String),
    run_id String,
    step_name String,
    step_kind LowCardinality(String),
    run_start DateTime64(9, 'UTC'),
    agent LowCardinality(String),
    service LowCardinality(String),
    outcome LowCardinality(String),
    groups UInt32,
    first_ok UInt32,
    recovered UInt32,
    attempts UInt32,
    ok_attempts UInt32,
    retry_ns Int64,
    retry_explicit_cost Float64,
    retry_models Array(LowCardinality(String)),
    retry_uncached Array(UInt64),
    retry_cached Array(UInt64),
    retry_output Array(UInt64),
    version UInt64
)
ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/{table}', '{replica}', version)
ORDER BY (project_id, run_id, step_name)
TTL toDateTime(run_start) + INTERVAL 30 DAY;

CREATE TABLE IF NOT EXISTS run_step_facts ON CLUSTER telltale AS run_step_facts_local
ENGINE = Distributed(telltale, currentDatabase(), run_step_facts_local, cityHash64(project_id, run_id));

CREATE TABLE IF NOT EXISTS run_steps_local ON CLUSTER telltale
(
    project_id LowCardinality(String),
    run_id String,
    run_start DateTime64(9, 'UTC'),
    start_ns Array(Int64) CODEC(Delta, ZSTD(1)),
    span_key Array(UInt64),
    duration_ns Array(Int64) CODEC(ZSTD(1)),
    explicit_cost Array(Float64) CODEC(ZSTD(1)),
    model Array(LowCardinality(String)),
    uncached Array(UInt64) CODEC(ZSTD(1)),
    cached Array(UInt64) CODEC(ZSTD(1)),
    output Array(UInt64) CODEC(ZSTD(1)),
    version UInt64
)
ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/{table}', '{replica}', version)
ORDER BY (project_id, run_id)
TTL toDateTime(run_start) + INTERVAL 30 DAY
SETTINGS index_granularity = 32;

CREATE TABLE IF NOT EXISTS run_steps ON CLUSTER telltale AS run_steps_local
ENGINE = Distributed(telltale, currentDatabase(), run_steps_local, cityHash64(project_id, run_id));

-- 0004 projects_keys
CREATE TABLE IF NOT EXISTS projects ON CLUSTER telltale
(
    project_id String,
    name String,
    max_spans_per_second Nullable(UInt32),
    created_at DateTime64(3, 'UTC'),
    version UInt64
)
ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/all/{database}/{table}', '{replica}', version)
ORDER BY project_id;

CREATE TABLE IF NOT EXISTS api_keys ON CLUSTER telltale
(
    key_id String,
    project_id String,
    kind Enum8('ingest' = 1, 'read' = 2),
    name String,
    secret_sha256 String,
    created_at DateTime64(3, 'UTC'),
    revoked_at Nullable(DateTime64(3, 'UTC')),
    version UInt64
)
ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/all/{database}/{table}', '{replica}', version)
ORDER BY key_id;

-- 0005 spans_compact_parts
ALTER TABLE spans_local ON CLUSTER telltale MODIFY SETTING min_bytes_for_wide_part = 134217728, merge_selector_base = 10;

-- 0006 alerts
CREATE TABLE IF NOT EXISTS alert_rules ON CLUSTER telltale
(
    project_id LowCardinality(String),
    rule_id String,
    name String,
    definition String,
    enabled UInt8,
    created_at DateTime64(3, 'UTC'),
    updated_at DateTime64(3, 'UTC'),
    version UInt64,
    is_deleted UInt8 DEFAULT 0
)
ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/all/{database}/{table}', '{replica}', version, is_deleted)
ORDER BY (project_id, rule_id);

CREATE TABLE IF NOT EXISTS alert_destinations ON CLUSTER telltale
(
    project_id LowCardinality(String),
    destination_id String,
    name String,
    format LowCardinality(String),
    url String,
    secrets Array(String),
    disabled_at Nullable(DateTime64(3, 'UTC')),
    disabled_reason String,
    created_at DateTime64(3, 'UTC'),
    updated_at DateTime64(3, 'UTC'),
    version UInt64,
    is_deleted UInt8 DEFAULT 0
)
ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/all/{database}/{table}', '{replica}', version, is_deleted)
ORDER BY (project_id, destination_id);

CREATE TABLE IF NOT EXISTS alert_state ON CLUSTER telltale
(
    project_id LowCardinality(String),
    rule_id String,
    group_key String,
    state LowCardinality(String),
    episode String,
    since DateTime64(3, 'UTC'),
    fired_at Nullable(DateTime64(3, 'UTC')),
    last_eval_at DateTime64(3, 'UTC'),
    last_value Nullable(Float64),
    last_sample UInt64,
    notify_seq UInt32,
    notify_kind LowCardinality(String),
    last_notified_at Nullable(DateTime64(3, 'UTC')),
    labels Map(String, String),
    version UInt64
)
ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/all/{database}/{table}', '{replica}', version)
ORDER BY (project_id, rule_id, group_key);

CREATE TABLE IF NOT EXISTS alert_history ON CLUSTER telltale
(
    project_id LowCardinality(String),
    rule_id String,
    group_key String,
    event_id String,
    at DateTime64(3, 'UTC'),
    from_state LowCardinality(String),
    to_state LowCardinality(String),
    value Nullable(Float64),
    threshold Float64,
    sample UInt64,
    message String
)
ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/all/{database}/{table}', '{replica}')
ORDER BY (project_id, at, event_id);

CREATE TABLE IF NOT EXISTS alert_notifications ON CLUSTER telltale
(
    project_id LowCardinality(String),
    notification_id String,
    destination_id String,
    rule_id String,
    group_key String,
    kind LowCardinality(String),
    body String,
    delivery_state LowCardinality(String),
    attempts UInt32,
    next_attempt_at DateTime64(3, 'UTC'),
    created_at DateTime64(3, 'UTC'),
    delivered_at Nullable(DateTime64(3, 'UTC')),
    last_error String,
    version UInt64
)
ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/all/{database}/{table}', '{replica}', version)
ORDER BY (project_id, notification_id);

CREATE TABLE IF NOT EXISTS alert_delivery_attempts ON CLUSTER telltale
(
    project_id LowCardinality(String),
    notification_id String,
    attempt UInt32,
    at DateTime64(3, 'UTC'),
    url String,
    status_code Nullable(UInt16),
    outcome LowCardinality(String),
    error String,
    duration_ms UInt32
)
ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/all/{database}/{table}', '{replica}')
ORDER BY (project_id, notification_id, attempt, at);

-- 0007 sessions
ALTER TABLE spans_local ON CLUSTER telltale ADD COLUMN IF NOT EXISTS session_id String
    MATERIALIZED coalesce(nullIf(attributes['gen_ai.conversation.id'], ''), nullIf(attributes['session.id'], ''),
        nullIf(attributes['ai.telemetry.metadata.sessionId'], ''), nullIf(attributes['traceloop.association.properties.session_id'], ''), '')
    CODEC(ZSTD(1));

ALTER TABLE spans ON CLUSTER telltale ADD COLUMN IF NOT EXISTS session_id String
    MATERIALIZED coalesce(nullIf(attributes['gen_ai.conversation.id'], ''), nullIf(attributes['session.id'], ''),
        nullIf(attributes['ai.telemetry.metadata.sessionId'], ''), nullIf(attributes['traceloop.association.properties.session_id'], ''), '')
    CODEC(ZSTD(1));

ALTER TABLE spans_local ON CLUSTER telltale ADD COLUMN IF NOT EXISTS reasoning_tokens UInt64
    MATERIALIZED toUInt64OrZero(coalesce(nullIf(attributes['gen_ai.usage.reasoning.output_tokens'], ''), nullIf(attributes['llm.token_count.completion_details.reasoning'], ''),
        nullIf(attributes['ai.usage.reasoningTokens'], ''), nullIf(attributes['ai.usage.outputTokenDetails.reasoningTokens'], ''),
        nullIf(attributes['gen_ai.usage.reasoning_tokens'], ''), '0'));

ALTER TABLE spans ON CLUSTER telltale ADD COLUMN IF NOT EXISTS reasoning_tokens UInt64
    MATERIALIZED toUInt64OrZero(coalesce(nullIf(attributes['gen_ai.usage.reasoning.output_tokens'], ''), nullIf(attributes['llm.token_count.completion_details.reasoning'], ''),
        nullIf(attributes['ai.usage.reasoningTokens'], ''), nullIf(attributes['ai.usage.outputTokenDetails.reasoningTokens'], ''),
        nullIf(attributes['gen_ai.usage.reasoning_tokens'], ''), '0'));

ALTER TABLE spans_local ON CLUSTER telltale ADD INDEX IF NOT EXISTS idx_session_id session_id TYPE bloom_filter(0.001) GRANULARITY 1;

ALTER TABLE run_facts_local ON CLUSTER telltale ADD COLUMN IF NOT EXISTS session_id String DEFAULT '' CODEC(ZSTD(1));

ALTER TABLE run_facts ON CLUSTER telltale ADD COLUMN IF NOT EXISTS session_id String DEFAULT '' CODEC(ZSTD(1));

-- 0008 trace_runs
CREATE TABLE IF NOT EXISTS trace_runs_local ON CLUSTER telltale
(
    project_id LowCardinality(String),
    trace_id String,
    run_id String,
    first_start DateTime64(9, 'UTC')
)
ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/{table}', '{replica}')
ORDER BY (project_id, trace_id, run_id)
TTL toDateTime(first_start) + INTERVAL 31 DAY;

CREATE TABLE IF NOT EXISTS trace_runs ON CLUSTER telltale AS trace_runs_local
ENGINE = Distributed(telltale, currentDatabase(), trace_runs_local, cityHash64(project_id, run_id));

CREATE MATERIALIZED VIEW IF NOT EXISTS trace_runs_mv ON CLUSTER telltale TO trace_runs_local AS
SELECT project_id, trace_id, run_id, min(start_time) AS first_start
FROM spans_local
WHERE run_id != trace_id
GROUP BY project_id, trace_id, run_id;

INSERT INTO trace_runs (project_id, trace_id, run_id, first_start)
SELECT project_id, trace_id, run_id, min(start_time)
FROM spans
WHERE run_id != trace_id
GROUP BY project_id, trace_id, run_id
SETTINGS parallel_distributed_insert_select = 2;

-- 0009 live_alert_events
CREATE TABLE IF NOT EXISTS live_alert_events ON CLUSTER telltale
(
    event_id   String,
    project_id String,
    written_at DateTime64(6, 'UTC') DEFAULT now64(6),
    payload    String CODEC(ZSTD(1))
)
ENGINE = ReplicatedMergeTree('/clickhouse/tables/all/{database}/{table}', '{replica}')
ORDER BY written_at
TTL toDateTime(written_at) + INTERVAL 1 DAY;

-- 0010 span_content
CREATE TABLE IF NOT EXISTS span_content_local ON CLUSTER telltale
(
    project_id LowCardinality(String),
    trace_id String,
    span_id String,
    start_time DateTime64(9, 'UTC'),
    input String CODEC(ZSTD(3)),
    output String CODEC(ZSTD(3)),
    truncated Bool,
    original_bytes UInt64,
    capture LowCardinality(String),
    redactions UInt32,
    ingested_at DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/{table}', '{replica}', ingested_at)
PARTITION BY toDate(start_time)
ORDER BY (project_id, trace_id, span_id)
TTL toDateTime(start_time) + INTERVAL 7 DAY
SETTINGS ttl_only_drop_parts = 1, replicated_deduplication_window = 1000;

CREATE TABLE IF NOT EXISTS span_content ON CLUSTER telltale AS span_content_local
ENGINE = Distributed(telltale, currentDatabase(), span_content_local, cityHash64(project_id, trace_id));

ALTER TABLE projects ON CLUSTER telltale ADD COLUMN IF NOT EXISTS content_stored Bool DEFAULT true;

ALTER TABLE projects ON CLUSTER telltale ADD COLUMN IF NOT EXISTS content_readable Bool DEFAULT false;

-- 0011 span_rollups
CREATE TABLE IF NOT EXISTS span_rollup_1m_local ON CLUSTER telltale
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
    dur_dd AggregateFunction(quantilesDD(0.01, 0.5, 0.9, 0.95, 0.99, 0.999), Int64),
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
ENGINE = ReplicatedAggregatingMergeTree('/clickhouse/tables/{shard}/{database}/{table}', '{replica}')
PARTITION BY toDate(minute)
ORDER BY (project_id, step_kind, step_name, tool_name, model, minute)
TTL minute + INTERVAL 30 DAY
SETTINGS ttl_only_drop_parts = 1, replicated_deduplication_window = 1000;

CREATE TABLE IF NOT EXISTS span_rollup_1m ON CLUSTER telltale AS span_rollup_1m_local
ENGINE = Distributed(telltale, currentDatabase(), span_rollup_1m_local, cityHash64(project_id));

INSERT INTO span_rollup_1m (project_id, step_kind, step_name, tool_name, model, minute, spans, dur_sum, dur_max, dur_dd, explicit_cost, billed, in_tok, cached_tok, out_tok, np_spans, np_uncached, np_cached, np_out)
SELECT project_id, step_kind, step_name, tool_name, model, toStartOfMinute(start_time) AS minute,
    count() AS spans,
    sum(duration_ns) AS dur_sum,
    max(duration_ns) AS dur_max,
    quantilesDDState(0.01, 0.5, 0.9, 0.95, 0.99, 0.999)(duration_ns) AS dur_dd,
    sum(ifNull(cost_usd, 0)) AS explicit_cost,
    countIf(input_tokens + output_tokens > 0 OR ifNull(cost_usd, 0) > 0) AS billed,
    sum(input_tokens) AS in_tok,
    sum(least(cached_input_tokens, input_tokens)) AS cached_tok,
    sum(output_tokens) AS out_tok,
    countIf(cost_usd IS NULL AND input_tokens + output_tokens > 0) AS np_spans,
    sumIf(input_tokens - least(cached_input_tokens, input_tokens), cost_usd IS NULL) AS np_uncached,
    sumIf(least(cached_input_tokens, input_tokens), cost_usd IS NULL) AS np_cached,
    sumIf(output_tokens, cost_usd IS NULL) AS np_out
FROM spans
WHERE step_kind NOT IN ('', 'run')
GROUP BY project_id, step_kind, step_name, tool_name, model, minute
SETTINGS parallel_distributed_insert_select = 2;

CREATE MATERIALIZED VIEW IF NOT EXISTS span_rollup_1m_mv ON CLUSTER telltale TO span_rollup_1m_local AS
SELECT project_id, step_kind, step_name, tool_name, model, toStartOfMinute(start_time) AS minute,
    count() AS spans,
    sum(duration_ns) AS dur_sum,
    max(duration_ns) AS dur_max,
    quantilesDDState(0.01, 0.5, 0.9, 0.95, 0.99, 0.999)(duration_ns) AS dur_dd,
    sum(ifNull(cost_usd, 0)) AS explicit_cost,
    countIf(input_tokens + output_tokens > 0 OR ifNull(cost_usd, 0) > 0) AS billed,
    sum(input_tokens) AS in_tok,
    sum(least(cached_input_tokens, input_tokens)) AS cached_tok,
    sum(output_tokens) AS out_tok,
    countIf(cost_usd IS NULL AND input_tokens + output_tokens > 0) AS np_spans,
    sumIf(input_tokens - least(cached_input_tokens, input_tokens), cost_usd IS NULL) AS np_uncached,
    sumIf(least(cached_input_tokens, input_tokens), cost_usd IS NULL) AS np_cached,
    sumIf(output_tokens, cost_usd IS NULL) AS np_out
FROM spans_local
WHERE step_kind NOT IN ('', 'run')
GROUP BY project_id, step_kind, step_name, tool_name, model, minute;

-- 0012 span_content_writes
ALTER TABLE span_content_local ON CLUSTER telltale MODIFY COLUMN input String CODEC(ZSTD(1)), MODIFY COLUMN output String CODEC(ZSTD(1));

ALTER TABLE span_content ON CLUSTER telltale MODIFY COLUMN input String CODEC(ZSTD(1)), MODIFY COLUMN output String CODEC(ZSTD(1));

ALTER TABLE span_content_local ON CLUSTER telltale MODIFY SETTING merge_selector_base = 20;

-- 0013 run_steps_small_blocks
ALTER TABLE run_steps_local ON CLUSTER telltale MODIFY SETTING min_compress_block_size = 4096, max_compress_block_size = 16384;

-- 0014 span_content_small_granules
CREATE TABLE IF NOT EXISTS span_content_next_local ON CLUSTER telltale
(
    project_id LowCardinality(String),
    trace_id String,
    span_id String,
    start_time DateTime64(9, 'UTC'),
    input String CODEC(ZSTD(1)),
    output String CODEC(ZSTD(1)),
    truncated Bool,
    original_bytes UInt64,
    capture LowCardinality(String),
    redactions UInt32,
    ingested_at DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/{table}', '{replica}', ingested_at)
PARTITION BY toDate(start_time)
ORDER BY (project_id, trace_id, span_id)
TTL toDateTime(start_time) + INTERVAL 7 DAY
SETTINGS ttl_only_drop_parts = 1, replicated_deduplication_window = 1000, merge_selector_base = 20,
    index_granularity_bytes = 1048576;

CREATE TABLE IF NOT EXISTS span_content_next ON CLUSTER telltale AS span_content_next_local
ENGINE = Distributed(telltale, currentDatabase(), span_content_next_local, cityHash64(project_id, trace_id));

EXCHANGE TABLES span_content_local AND span_content_next_local ON CLUSTER telltale;

INSERT INTO span_content (project_id, trace_id, span_id, start_time, input, output, truncated, original_bytes, capture, redactions,
    ingested_at)
SELECT project_id, trace_id, span_id, start_time, input, output, truncated, original_bytes, capture, redactions,
    ingested_at
FROM span_content_next
SETTINGS parallel_distributed_insert_select = 2;

DROP TABLE IF EXISTS span_content_next ON CLUSTER telltale SYNC;

DROP TABLE IF EXISTS span_content_next_local ON CLUSTER telltale SYNC;

-- 0015 spans_run_counts
ALTER TABLE spans_local ON CLUSTER telltale MODIFY SETTING deduplicate_merge_projection_mode = 'rebuild', lightweight_mutation_projection_mode = 'rebuild';

ALTER TABLE spans_local ON CLUSTER telltale ADD PROJECTION IF NOT EXISTS run_span_counts
    (SELECT project_id, run_id, count(), max(ingested_at), min(start_time), max(start_time) GROUP BY project_id, run_id);

ALTER TABLE spans_local ON CLUSTER telltale MATERIALIZE PROJECTION run_span_counts;

-- 0016 spans_small_granules
CREATE TABLE IF NOT EXISTS spans_fine_local ON CLUSTER telltale AS spans_local
ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/{table}', '{replica}', ingested_at)
PARTITION BY toDate(start_time)
ORDER BY (project_id, toStartOfHour(start_time), run_id, span_id)
TTL toDateTime(start_time) + INTERVAL 30 DAY
SETTINGS index_granularity = 8192, index_granularity_bytes = 2097152, ttl_only_drop_parts = 1,
    replicated_deduplication_window = 1000, min_bytes_for_wide_part = 134217728, merge_selector_base = 10,
    deduplicate_merge_projection_mode = 'rebuild', lightweight_mutation_projection_mode = 'rebuild';

CREATE TABLE IF NOT EXISTS spans_fine ON CLUSTER telltale AS spans_fine_local
ENGINE = Distributed(telltale, currentDatabase(), spans_fine_local, cityHash64(project_id, run_id));

EXCHANGE TABLES spans_local AND spans_fine_local ON CLUSTER telltale;

ALTER TABLE spans_local ON CLUSTER telltale ATTACH PARTITION ALL FROM spans_fine_local;

DROP TABLE IF EXISTS spans_fine ON CLUSTER telltale SYNC;

DROP TABLE IF EXISTS spans_fine_local ON CLUSTER telltale SYNC;

-- 0017 spans_ingested_index
ALTER TABLE spans_local ON CLUSTER telltale ADD INDEX IF NOT EXISTS ingested_at_minmax ingested_at TYPE minmax GRANULARITY 1;

ALTER TABLE spans_local ON CLUSTER telltale MATERIALIZE INDEX ingested_at_minmax;

-- 0018 spans_wider_merges
ALTER TABLE spans_local ON CLUSTER telltale MODIFY SETTING merge_selector_base = 20;
