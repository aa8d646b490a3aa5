import type { Migration } from './Migration.js';

/**
 * Projects and their API keys. Both tables are small and change rarely: one
 * current row per project / key, ReplacingMergeTree keeps the row with the
 * highest `version` (microseconds), reads use FINAL. Revoking a key writes a
 * newer row with `revoked_at` set. A key's secret is never stored: only the
 * SHA-256 of its secret part (hex), looked up by the key id.
 */
export const m0004ProjectsKeys: Migration = {
  version: 4,
  name: 'projects_keys',
  statements: [
    `CREATE TABLE IF NOT EXISTS projects
(
    project_id String,
    name String,
    max_spans_per_second Nullable(UInt32),
    created_at DateTime64(3, 'UTC'),
    version UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY project_id`,
    `CREATE TABLE IF NOT EXISTS api_keys
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
ENGINE = ReplacingMergeTree(version)
ORDER BY key_id`,
  ],
};
