import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../Store.js';
import { parseAllocatorSummary } from './engineMemory.js';

describe('parseAllocatorSummary', () => {
  it('reads the allocated and resident bytes of the summary line', () => {
    const stats = [
      'Arenas: 4',
      'Allocated: 25854240, active: 26324992, metadata: 5288688 (n_thp 0, edata 131328, rtree 4194304), resident: 31645696, mapped: 43380736, retained: 2756608',
      'Count of realloc(non-null-ptr, 0) calls: 0',
    ].join('\n');
    expect(parseAllocatorSummary(stats)).toEqual({ allocatedBytes: 25_854_240, residentBytes: 31_645_696 });
  });

  it('gives undefined for a report without the summary line', () => {
    expect(parseAllocatorSummary('___ Begin jemalloc statistics ___\n--- End jemalloc statistics ---')).toBeUndefined();
  });
});

describe('Store.engineMemory (embedded chDB)', () => {
  let dir: string;
  let store: Store;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-engine-memory-'));
    store = await Store.open({ kind: 'embedded', dataDir: dir });
  }, 60_000);

  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("reports the engine allocator's memory and its merges", async () => {
    const idle = await store.engineMemory();
    if (idle === undefined) throw new Error('the embedded engine gave no memory report');
    // the engine's own memory: more than a few MiB once its tables are open, and its pages at least that
    expect(idle.allocatedBytes).toBeGreaterThan(4 * 1024 * 1024);
    expect(idle.residentBytes).toBeGreaterThanOrEqual(idle.allocatedBytes);
    expect(idle.merges).toBeGreaterThanOrEqual(0);
    expect(idle.mergeBytes).toBeGreaterThanOrEqual(0);
  }, 60_000);
});
