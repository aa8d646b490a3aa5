import type { Migration } from './Migration.js';

/**
 * Which runs each trace carries, for spans that do not name their run (a
 * downstream service instrumented with plain OpenTelemetry continues the
 * agent's trace through W3C trace context, so its spans lack
 * `telltale.run.id` and are stored under their trace id). One row per
 * (project, trace, run) of every span that names a run other than its trace
 * id, kept by a materialized view on `spans`: it is written with the spans,
 * in the same database, so it holds whatever the arrival order, the ingest
 * thread or process, or a restart. The run-facts finaliser reads it to move
 * such spans into their run (facts/TraceRunResolver.ts). The last statement
 * fills it from the spans stored before it existed.
 */
export const m0008TraceRuns: Migration = {
  version: 8,
  name: 'trace_runs',
  statements: [
    `CREATE TABLE IF NOT EXISTS trace_runs
(
    project_id LowCardinality(String),
    trace_id String,
    run_id String,
    first_start DateTime64(9, 'UTC')
)
ENGINE = ReplacingMergeTree
ORDER BY (project_id, trace_id, run_id)
TTL toDateTime(first_start) + INTERVAL 31 DAY`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS trace_runs_mv TO trace_runs AS
SELECT project_id, trace_id, run_id, min(start_time) AS first_start
FROM spans
WHERE run_id != trace_id
GROUP BY project_id, trace_id, run_id`,
    `INSERT INTO trace_runs (project_id, trace_id, run_id, first_start)
SELECT project_id, trace_id, run_id, min(start_time)
FROM spans
WHERE run_id != trace_id
GROUP BY project_id, trace_id, run_id`,
  ],
};
