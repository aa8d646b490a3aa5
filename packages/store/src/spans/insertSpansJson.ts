import type { ClickHouseClient } from '@clickhouse/client';
import type { SpanRecord } from './SpanRecord.js';
import { toSpanInsertRow } from './spanRow.js';

/**
 * The JSONEachRow insert (toSpanInsertRow rows): the reference the Arrow path
 * (Store.insertSpans, insertSpanBatches) is tested against. It takes no
 * deduplication token: over chDB the client's `clickhouse_settings` become a
 * session-wide SET, so a token would stick to every later insert and drop it.
 * Slower than the Arrow path, and stricter: it rejects a whole batch for a
 * lone surrogate or a time before 1973-03-03 (its 'seconds.nanos' text needs
 * nine digits of seconds). JSONEachRow bodies are produced with
 * JSON.stringify (one line per row, never a blank line), so chDB's
 * inline-body parsing cannot cut them short.
 */
export async function insertSpansJson(client: ClickHouseClient, spans: readonly SpanRecord[]): Promise<void> {
  if (spans.length === 0) return;
  await client.insert({ table: 'spans', values: spans.map(toSpanInsertRow), format: 'JSONEachRow' });
}
