import type { Migration } from './Migration.js';

/**
 * Cheaper writes of span content, still ZSTD-compressed: about 2 KB of
 * text per row makes compression half of what the engine spends to write a
 * row, and every merge decompresses and compresses the row again.
 *
 * - `ZSTD(1)` instead of `ZSTD(3)` on `input` and `output`. New parts and
 *   merges use it; the parts already written are not rewritten.
 * - `merge_selector_base = 20` (default 5): a merge takes more parts at
 *   once, so a row is rewritten fewer times before its part is dropped
 *   with its day. Content is read only for one span or one run, through
 *   the key, so the few more parts a day cost a lookup little.
 */
export const m0012SpanContentWrites: Migration = {
  version: 12,
  name: 'span_content_writes',
  statements: [
    `ALTER TABLE span_content MODIFY COLUMN input String CODEC(ZSTD(1)), MODIFY COLUMN output String CODEC(ZSTD(1))`,
    `ALTER TABLE span_content MODIFY SETTING merge_selector_base = 20`,
  ],
};
