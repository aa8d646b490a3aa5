import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Spool } from './Spool.js';

const payload = (text: string): Uint8Array => Buffer.from(text);

describe('Spool figures for operators (records pending, oldest record)', () => {
  it('counts the records not yet acknowledged and dates the oldest, across batches and a reopen', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'telltale-spool-stats-'));
    try {
      const spool = await Spool.open({ dir, segmentBytes: 64 });
      expect(spool.pendingRecords).toBe(0);
      expect(spool.oldestPendingAtMs).toBeUndefined();
      const before = Date.now();
      await spool.append([payload('first record')], 3);
      const afterFirst = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 20));
      await spool.append([payload('second record, in the same or the next segment')], 5);
      await spool.append([payload('third')], 1);
      expect(spool.pendingRecords).toBe(3);
      const oldest = spool.oldestPendingAtMs!;
      expect(oldest).toBeGreaterThanOrEqual(before);
      expect(oldest).toBeLessThanOrEqual(afterFirst);

      const batch = await spool.nextBatch({ maxWeight: 3, maxBytes: 1024 ** 2 });
      expect(batch?.records).toBe(1);
      await spool.ack(batch!);
      expect(spool.pendingRecords).toBe(2);
      expect(spool.pendingWeight).toBe(6);
      // the oldest is now the second record, appended later
      expect(spool.oldestPendingAtMs!).toBeGreaterThan(oldest);
      await spool.close();

      // what is left on disk counts from the reopen
      const opened = Date.now();
      const again = await Spool.open({ dir, segmentBytes: 64 });
      expect(again.pendingRecords).toBe(2);
      expect(again.oldestPendingAtMs!).toBeGreaterThanOrEqual(opened);
      const rest = await again.nextBatch({ maxWeight: 100, maxBytes: 1024 ** 2 });
      expect(rest?.records).toBe(2);
      await again.ack(rest!);
      expect(again.pendingRecords).toBe(0);
      expect(again.oldestPendingAtMs).toBeUndefined();
      await again.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
