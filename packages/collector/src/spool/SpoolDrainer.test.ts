import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Spool } from './Spool.js';
import { DRAIN_BATCH_BYTES_PER_SPAN, SpoolDrainer } from './SpoolDrainer.js';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/** Drains `records` payloads of `payloadBytes` bytes and weight 1 with batches of `maxBatchWeight`; the records per batch. */
async function batchSizes(maxBatchWeight: number, records: number, payloadBytes: number): Promise<number[]> {
  const dir = await mkdtemp(join(tmpdir(), 'telltale-drainer-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  const spool = await Spool.open({ dir });
  cleanup.push(() => spool.close());
  for (let i = 0; i < records; i++) await spool.append([Buffer.alloc(payloadBytes, i)], 1);
  const sizes: number[] = [];
  const drainer = new SpoolDrainer({
    spool,
    maxBatchWeight,
    lingerMs: 1,
    store: async (payloads) => {
      let n = 0;
      for await (const p of payloads) if (p.length === payloadBytes) n++;
      sizes.push(n);
    },
  });
  drainer.start();
  cleanup.push(() => drainer.stop());
  await drainer.drained(10_000);
  return sizes;
}

describe('SpoolDrainer batches', () => {
  it('hold at most their weight in spans, and DRAIN_BATCH_BYTES_PER_SPAN bytes per span of it', async () => {
    // by weight: 5 spans of small records a batch
    expect(await batchSizes(5, 12, 100)).toEqual([5, 5, 2]);
    // by bytes: 4 spans allow 8 KiB, two records of 3,000 bytes (and their headers) but not three
    expect(DRAIN_BATCH_BYTES_PER_SPAN * 4).toBe(8192);
    expect(await batchSizes(4, 6, 3000)).toEqual([2, 2, 2]);
    // a larger batch weight allows more bytes: all six in one batch
    expect(await batchSizes(100, 6, 3000)).toEqual([6]);
  });

  it('always take a record, however large', async () => {
    expect(await batchSizes(1, 2, 10_000)).toEqual([1, 1]);
  });
});
