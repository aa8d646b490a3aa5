import type { Store } from '@telltale/store';
import { FACTS_TABLES, type FactsTable } from './runFactsBench.js';

export interface ColumnSize {
  column: string;
  compressedBytes: number;
  uncompressedBytes: number;
}

/** One run-facts table on disk: active parts, after the facts are settled (see settleRunFacts). */
export interface FactsTableSize {
  table: FactsTable;
  rows: number;
  bytesOnDisk: number;
}

/** The spans table on disk: active parts after the load (and OPTIMIZE … FINAL); the run-facts tables beside it. */
export interface StorageFacts {
  rows: number;
  parts: number;
  bytesOnDisk: number;
  bytesPerSpan: number;
  /** Compressed data of every column (excluding indexes and marks), largest first. */
  columns: ColumnSize[];
  /** The run-facts tables, in FACTS_TABLES order. */
  facts: FactsTableSize[];
  /** All run-facts tables' bytes on disk per span of `spans`: what the facts add to a span's cost. */
  factsBytesPerSpan: number;
}

async function factsSizes(store: Store): Promise<FactsTableSize[]> {
  const result = await store.client.query({
    query: `SELECT table, sum(rows) AS rows, sum(bytes_on_disk) AS bytes FROM system.parts
            WHERE database = currentDatabase() AND table IN {tables:Array(String)} AND active GROUP BY table`,
    format: 'JSONEachRow',
    query_params: { tables: FACTS_TABLES },
  });
  const byTable = new Map(
    (await result.json<{ table: string; rows: string; bytes: string }>()).map((r) => [r.table, r]),
  );
  return FACTS_TABLES.map((table) => ({
    table,
    rows: Number(byTable.get(table)?.rows ?? 0),
    bytesOnDisk: Number(byTable.get(table)?.bytes ?? 0),
  }));
}

export async function storageFacts(store: Store): Promise<StorageFacts> {
  const parts = await store.client.query({
    query: `SELECT sum(rows) AS rows, count() AS parts, sum(bytes_on_disk) AS bytes FROM system.parts WHERE database = currentDatabase() AND table = 'spans' AND active`,
    format: 'JSONEachRow',
  });
  const [p] = await parts.json<{ rows: string; parts: string; bytes: string }>();
  const cols = await store.client.query({
    query: `SELECT name, data_compressed_bytes AS c, data_uncompressed_bytes AS u FROM system.columns
            WHERE database = currentDatabase() AND table = 'spans' ORDER BY c DESC`,
    format: 'JSONEachRow',
  });
  const rows = Number(p?.rows ?? 0);
  const bytesOnDisk = Number(p?.bytes ?? 0);
  const facts = await factsSizes(store);
  const factsBytes = facts.reduce((sum, t) => sum + t.bytesOnDisk, 0);
  return {
    rows,
    parts: Number(p?.parts ?? 0),
    bytesOnDisk,
    bytesPerSpan: rows === 0 ? 0 : bytesOnDisk / rows,
    columns: (await cols.json<{ name: string; c: string; u: string }>()).map((c) => ({
      column: c.name,
      compressedBytes: Number(c.c),
      uncompressedBytes: Number(c.u),
    })),
    facts,
    factsBytesPerSpan: rows === 0 ? 0 : factsBytes / rows,
  };
}
