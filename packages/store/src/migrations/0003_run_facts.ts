import type { Migration } from './Migration.js';

/**
 * Per-run facts, finalised from a run's spans after they arrive (facts/RunFacts.ts)
 * so that run-level overview queries aggregate one row per run instead of
 * re-deriving attempt groups, outcomes, loops and causes from every span on
 * every request.
 *
 * One current row per run (and per run and step name): a refinalisation after
 * late spans writes a row with a higher `version`; reads use FINAL. Nothing here
 * depends on prices: usage is kept per model and priced at query time, so a
 * price override applies at once. `span_count` and `ingested_max` record which
 * spans the row was computed from, so a restart can tell stale rows.
 *
 * `loop_dets` holds the detections but runaway (default `repeat` and
 * `pingPongCycles`), their wasted spans' cost left at 0: queries price them
 * from `run_steps`, every step span of a run in start order with its cost
 * inputs, which also gives the runaway evidence once a query knows the
 * run's limit. Queries read run_steps only for the runs that loop, by key;
 * its small index granularity keeps those reads to a few rows each.
 */
export const m0003RunFacts: Migration = {
  version: 3,
  name: 'run_facts',
  statements: [
    `CREATE TABLE IF NOT EXISTS run_facts
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
ENGINE = ReplacingMergeTree(version)
ORDER BY (project_id, run_id)
TTL toDateTime(run_start) + INTERVAL 30 DAY`,
    `CREATE TABLE IF NOT EXISTS run_step_facts
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
ENGINE = ReplacingMergeTree(version)
ORDER BY (project_id, run_id, step_name)
TTL toDateTime(run_start) + INTERVAL 30 DAY`,
    `CREATE TABLE IF NOT EXISTS run_steps
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
ENGINE = ReplacingMergeTree(version)
ORDER BY (project_id, run_id)
TTL toDateTime(run_start) + INTERVAL 30 DAY
SETTINGS index_granularity = 32`,
  ],
};
