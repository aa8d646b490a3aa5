import type { Store } from '@telltale/store';
import { StoreInspector } from '@telltale/store/testing';
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

async function factsSizes(inspector: StoreInspector): Promise<FactsTableSize[]> {
  const sizes = await inspector.tableSizes(FACTS_TABLES);
  return FACTS_TABLES.map((table, i) => ({
    table,
    rows: sizes[i]?.rows ?? 0,
    bytesOnDisk: sizes[i]?.bytesOnDisk ?? 0,
  }));
}

export async function storageFacts(store: Store): Promise<StorageFacts> {
  const inspector = new StoreInspector(store);
  const [spans] = await inspector.tableSizes(['spans']);
  const rows = spans?.rows ?? 0;
  const bytesOnDisk = spans?.bytesOnDisk ?? 0;
  const facts = await factsSizes(inspector);
  const factsBytes = facts.reduce((sum, t) => sum + t.bytesOnDisk, 0);
  return {
    rows,
    parts: spans?.parts ?? 0,
    bytesOnDisk,
    bytesPerSpan: rows === 0 ? 0 : bytesOnDisk / rows,
    columns: await inspector.columnSizes('spans'),
    facts,
    factsBytesPerSpan: rows === 0 ? 0 : factsBytes / rows,
  };
}
