import type { ClickHouseClient } from '@clickhouse/client';

/**
 * Where the embedded engine's memory is, as its own allocator and merges see
 * it. The engine links its own allocator (jemalloc), apart from Node's: its
 * pages are most of the server's memory under load, and the engine's memory
 * tracker does not count the freed pages the allocator keeps for reuse.
 */
export interface EngineMemory {
  /** Bytes the allocator has handed out and not yet had back: the engine's memory in use. */
  allocatedBytes: number;
  /**
   * Bytes of the allocator's pages in memory: those in use, the freed pages
   * it keeps for reuse (given back to the system after a delay, see the
   * server's operations guide) and its metadata.
   */
  residentBytes: number;
  /** Background merges running, and the memory they hold (part of `allocatedBytes`). */
  merges: number;
  mergeBytes: number;
}

/**
 * The allocator's summary line of `system.jemalloc_stats`:
 * `Allocated: N, active: N, metadata: N (…), resident: N, mapped: N, retained: N`.
 */
const SUMMARY = /^Allocated: (\d+), active: \d+, metadata: \d+ \([^)]*\), resident: (\d+),/m;

/** The allocated and resident bytes of a `system.jemalloc_stats` text; undefined when it has no summary line. */
export function parseAllocatorSummary(stats: string): { allocatedBytes: number; residentBytes: number } | undefined {
  const m = SUMMARY.exec(stats);
  if (m === null) return undefined;
  return { allocatedBytes: Number(m[1]), residentBytes: Number(m[2]) };
}

/**
 * Reads the engine's memory (embedded engine only: `system.jemalloc_stats`
 * is the embedded engine's table). Undefined when the allocator's report has
 * no summary line (another allocator build).
 */
export async function readEngineMemory(client: ClickHouseClient): Promise<EngineMemory | undefined> {
  const [stats, merges] = await Promise.all([
    client.query({ query: 'SELECT * FROM system.jemalloc_stats', format: 'TabSeparatedRaw' }).then((r) => r.text()),
    client
      .query({
        // 32-bit and float columns: JSON numbers, not quoted 64-bit integers
        query: 'SELECT toUInt32(count()) AS n, toFloat64(sum(memory_usage)) AS bytes FROM system.merges',
        format: 'JSONEachRow',
      })
      .then((r) => r.json<{ n: number; bytes: number }>()),
  ]);
  const summary = parseAllocatorSummary(stats);
  if (summary === undefined) return undefined;
  const running = merges[0] ?? { n: 0, bytes: 0 };
  return { ...summary, merges: running.n, mergeBytes: Math.max(0, running.bytes) };
}
