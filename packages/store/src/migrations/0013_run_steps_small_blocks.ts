import type { Migration } from './Migration.js';

/**
 * `run_steps` is read by key for a few runs at a time (the loop page reads
 * the steps of the runs that loop), but a compressed block held 64 KiB to
 * 1 MiB: two or three granules of 32 runs, all decompressed to read one run.
 * Blocks of 4–16 KiB hold about one granule, so a read decompresses about
 * the runs of its own granule (measured on 10M spans, 977 looping runs of
 * 91,561: their steps read in 150 CPU-ms instead of 205, the same bytes on
 * disk within 3%). Parts written before keep their blocks until merged.
 */
export const m0013RunStepsSmallBlocks: Migration = {
  version: 13,
  name: 'run_steps_small_blocks',
  statements: [`ALTER TABLE run_steps MODIFY SETTING min_compress_block_size = 4096, max_compress_block_size = 16384`],
};
