import type { Migration } from './Migration.js';

/**
 * Each part of `spans` keeps its span count, newest ingest time and first
 * and last span start per run (an aggregate projection, built with the part
 * and rebuilt by its merges), so the queries that ask that of runs read one
 * row per run and part instead of every span's `run_id`: the check that a
 * worker's facts saw all of a run's spans (finaliseKept's STORED_SQL, after
 * every facts write), the reconcile at start (STALE_RUNS_SQL), and the time
 * bounds of the SQL finaliser's runs (RUNS_TIME_SQL). The engine picks the
 * projection for a query of that shape by itself; the results are the same
 * with or without it.
 *
 * Without it, that check read the whole table's `run_id` column: a write's
 * thousands of run ids hit every granule, so the bloom filter and the
 * primary key skipped none. Measured on 1M, 3M and 10M stored spans, 3,656
 * ids asked (the runs and traces of 128,000 spans): 34–50, 76–168 and
 * 195–215 CPU-ms without the projection; 16–38, 23–62 and 22–32 with it.
 *
 * `spans` is a ReplacingMergeTree: its merges drop duplicates, so they
 * rebuild the projection from the merged rows (`deduplicate_merge_projection_mode`),
 * and a lightweight delete (the trace resolver's, run deletion) rebuilds it
 * for the parts it touches instead of refusing. Parts written before are
 * given the projection by a background mutation; until then they are read
 * as before.
 */
export const m0015SpansRunCounts: Migration = {
  version: 15,
  name: 'spans_run_counts',
  statements: [
    `ALTER TABLE spans MODIFY SETTING deduplicate_merge_projection_mode = 'rebuild', lightweight_mutation_projection_mode = 'rebuild'`,
    `ALTER TABLE spans ADD PROJECTION IF NOT EXISTS run_span_counts
    (SELECT project_id, run_id, count(), max(ingested_at), min(start_time), max(start_time) GROUP BY project_id, run_id)`,
    `ALTER TABLE spans MATERIALIZE PROJECTION run_span_counts`,
  ],
};
