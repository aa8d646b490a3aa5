import type { Migration } from './Migration.js';

/**
 * A project's price overrides, per model, in USD per million tokens. One
 * current row per (project, model): ReplacingMergeTree keeps the row with the
 * highest `updated_at`; a delete writes a newer row with `is_deleted = 1`.
 * Reads use FINAL (the table holds a handful of rows per project).
 */
export const m0002ModelPrices: Migration = {
  version: 2,
  name: 'model_prices',
  statements: [
    `CREATE TABLE IF NOT EXISTS model_prices
(
    project_id LowCardinality(String),
    model String,
    input_per_mtok Float64,
    cached_input_per_mtok Float64,
    output_per_mtok Float64,
    as_of String,
    source String,
    updated_at DateTime64(6, 'UTC'),
    is_deleted UInt8 DEFAULT 0
)
ENGINE = ReplacingMergeTree(updated_at, is_deleted)
ORDER BY (project_id, model)`,
  ],
};
