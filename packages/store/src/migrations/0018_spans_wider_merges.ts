import type { Migration } from './Migration.js';

/**
 * Merges of `spans` wait for twice as many parts of a size before they
 * start (`merge_selector_base` 20, against 10 since migration 5 and the
 * engine's 5), so a span is rewritten fewer times on its way to a large
 * part. Under a saturating ingest load the engine's merge threads spent
 * about 3.2 CPU-µs per span against 4.2, in alternated rounds
 * (bench/README.md, "Wider merges of `spans`"); the overview queries on
 * live parts stay under 500 ms at 10M spans. `span_content` has merged
 * this way since migration 12.
 */
export const m0018SpansWiderMerges: Migration = {
  version: 18,
  name: 'spans_wider_merges',
  statements: [`ALTER TABLE spans MODIFY SETTING merge_selector_base = 20`],
};
