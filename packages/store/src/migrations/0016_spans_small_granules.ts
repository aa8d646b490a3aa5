import type { Migration } from './Migration.js';

/**
 * Granules of at most 2 MiB for `spans`. A merge holds a granule of every
 * column of each part it merges, and a span row is about 0.7 KB in the
 * engine, so the default of 10 MiB gave granules of the full 8,192 rows:
 * merging eleven drain batches of 128k spans took 145–258 MiB more resident
 * memory, against 109–142 MiB with 2 MiB granules (about 2,900 rows each),
 * for 10–15% more CPU in the merge and the same in the insert. Under a
 * saturating load the server's peak memory follows its merges.
 *
 * The granule size is fixed when a table is created, so the table is made
 * again as it is (`AS spans`: columns, indexes, projection) with the new
 * size; the new one takes the name first, so the views on `spans` fire for
 * the inserts from then on, and the old parts are then attached to it
 * (hard links, no copy, no view fires; they keep their granules until
 * merged). The TTL is the default one until the server is given
 * `--retention-days` again (it sets it at every start it is given).
 *
 * A process killed after the swap and before the attach redoes the
 * migration at its next start, swapping back: nothing is lost, and the
 * table keeps its former granules. Killed between the attach and the drop,
 * the redo attaches the old parts twice: duplicates of a key, which merges
 * collapse and FINAL reads do not see, as for any span sent twice.
 */
export const m0016SpansSmallGranules: Migration = {
  version: 16,
  name: 'spans_small_granules',
  statements: [
    `CREATE TABLE IF NOT EXISTS spans_fine AS spans
ENGINE = ReplacingMergeTree(ingested_at)
PARTITION BY toDate(start_time)
ORDER BY (project_id, toStartOfHour(start_time), run_id, span_id)
TTL toDateTime(start_time) + INTERVAL 30 DAY
SETTINGS index_granularity = 8192, index_granularity_bytes = 2097152, ttl_only_drop_parts = 1,
    non_replicated_deduplication_window = 1000, min_bytes_for_wide_part = 134217728, merge_selector_base = 10,
    deduplicate_merge_projection_mode = 'rebuild', lightweight_mutation_projection_mode = 'rebuild'`,
    `EXCHANGE TABLES spans AND spans_fine`,
    `ALTER TABLE spans ATTACH PARTITION ALL FROM spans_fine`,
    `DROP TABLE IF EXISTS spans_fine`,
  ],
};
