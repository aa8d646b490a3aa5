import { DEFAULT_CONTENT_RETENTION_DAYS } from './0010_span_content.js';
import type { Migration } from './Migration.js';

/** What span_content's columns are since migration 0012. */
const COLUMNS = `project_id, trace_id, span_id, start_time, input, output, truncated, original_bytes, capture, redactions,
    ingested_at`;

/**
 * Granules of at most 1 MiB for span_content. A merge reads a granule of
 * every column of every part it merges at once, and with the default of
 * 10 MiB per granule a row of a few KiB of text fills one with a few
 * thousand rows: merging 20 parts of 17k rows of 2 KB content took the
 * engine about 410-500 MiB more resident memory, against about 25 MiB with
 * 1 MiB granules, for the same CPU. A lookup through the key also reads
 * less per span.
 *
 * The granule size is fixed when a table is created, so the table is made
 * again: the new one takes the name first, so inserts from then on go to
 * it, and the rows written before are copied in after (duplicates of a key
 * collapse, as every retried insert does). Reads miss the older content
 * only while it is copied. A process killed between the swap and the drop
 * redoes the migration at its next start, swapping back: nothing is lost,
 * and the table then keeps its former granules.
 */
export const m0014SpanContentSmallGranules: Migration = {
  version: 14,
  name: 'span_content_small_granules',
  statements: [
    `CREATE TABLE IF NOT EXISTS span_content_next
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
ENGINE = ReplacingMergeTree(ingested_at)
PARTITION BY toDate(start_time)
ORDER BY (project_id, trace_id, span_id)
TTL toDateTime(start_time) + INTERVAL ${DEFAULT_CONTENT_RETENTION_DAYS} DAY
SETTINGS ttl_only_drop_parts = 1, non_replicated_deduplication_window = 1000, merge_selector_base = 20,
    index_granularity_bytes = 1048576`,
    `EXCHANGE TABLES span_content AND span_content_next`,
    `INSERT INTO span_content (${COLUMNS})
SELECT ${COLUMNS}
FROM span_content_next`,
    `DROP TABLE IF EXISTS span_content_next`,
  ],
};
