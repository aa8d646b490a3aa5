import type { Migration } from './Migration.js';

/** Days content is kept unless `--content-retention-days` says otherwise: shorter than spans. */
export const DEFAULT_CONTENT_RETENTION_DAYS = 7;

/**
 * What the agent saw, kept apart from the spans: the inputs and outputs of
 * steps (prompts, messages, tool arguments and results) the collector moves
 * out of each span before its row is written. One row per (project, trace,
 * span), found through the span; no analytics query reads it. Text columns
 * are ZSTD-compressed; the table has its own, shorter TTL (whole daily parts
 * are dropped). Projects gain two switches: `content_stored` (false: content
 * is dropped at ingest) and `content_readable` (true: read keys may read it).
 */
export const m0010SpanContent: Migration = {
  version: 10,
  name: 'span_content',
  statements: [
    `CREATE TABLE IF NOT EXISTS span_content
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
ENGINE = ReplacingMergeTree(ingested_at)
PARTITION BY toDate(start_time)
ORDER BY (project_id, trace_id, span_id)
TTL toDateTime(start_time) + INTERVAL ${DEFAULT_CONTENT_RETENTION_DAYS} DAY
SETTINGS ttl_only_drop_parts = 1, non_replicated_deduplication_window = 1000`,
    `ALTER TABLE projects ADD COLUMN IF NOT EXISTS content_stored Bool DEFAULT true`,
    `ALTER TABLE projects ADD COLUMN IF NOT EXISTS content_readable Bool DEFAULT false`,
  ],
};
