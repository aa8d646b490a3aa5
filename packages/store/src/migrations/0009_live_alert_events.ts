import type { Migration } from './Migration.js';

/**
 * Live alert events (a loop seen while a run is going) raised by ingest
 * processes, for the process that evaluates alerts (the worker holding the
 * alert lease) to pick up: with split roles they are not in one process.
 * `payload` is the event as JSON; rows live a day.
 */
export const m0009LiveAlertEvents: Migration = {
  version: 9,
  name: 'live_alert_events',
  statements: [
    `CREATE TABLE IF NOT EXISTS live_alert_events
(
    event_id   String,
    project_id String,
    written_at DateTime64(6, 'UTC') DEFAULT now64(6),
    payload    String CODEC(ZSTD(1))
)
ENGINE = MergeTree
ORDER BY written_at
TTL toDateTime(written_at) + INTERVAL 1 DAY`,
  ],
};
