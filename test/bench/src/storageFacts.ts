import type { Store } from '@telltale/store';

export interface ColumnSize {
  column: string;
  compressedBytes: number;
  uncompressedBytes: number;
}

/** The spans table on disk: active parts after the load (and OPTIMIZE … FINAL). */
export interface StorageFacts {
  rows: number;
  parts: number;
  bytesOnDisk: number;
  bytesPerSpan: number;
  /** Compressed data of every column (excluding indexes and marks), largest first. */
  columns: ColumnSize[];
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
  };
}
