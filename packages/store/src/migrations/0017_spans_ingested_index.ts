import type { Migration } from './Migration.js';

/** The skip index on `spans.ingested_at`: the first and last ingest time of each granule. */
export const INGESTED_AT_INDEX = 'ingested_at_minmax';

/**
 * The first and last ingest time of each granule of `spans`, so a read of
 * the spans ingested since a moment (the run facts catch-up of split roles,
 * RUNS_INGESTED_SINCE_SQL) skips every granule ingested before it: its cost
 * follows what arrived since, not everything stored. An insert's rows all
 * take the same ingest time (the column's DEFAULT), so a part as inserted
 * has one; a merge keeps its inputs' range granule by granule.
 *
 * Parts written before are given the index by a background mutation; until
 * then a read by ingest time reads them whole, as before.
 */
export const m0017SpansIngestedIndex: Migration = {
  version: 17,
  name: 'spans_ingested_index',
  statements: [
    `ALTER TABLE spans ADD INDEX IF NOT EXISTS ${INGESTED_AT_INDEX} ingested_at TYPE minmax GRANULARITY 1`,
    `ALTER TABLE spans MATERIALIZE INDEX ${INGESTED_AT_INDEX}`,
  ],
};
