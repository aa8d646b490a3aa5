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
  ],
};
