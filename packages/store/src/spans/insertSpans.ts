import type { ClickHouseClient } from '@clickhouse/client';
import type { SpanRecord } from './SpanRecord.js';
import { toSpanInsertRow } from './spanRow.js';

/**
 * Inserts one batch as one part. Callers batch: every insert makes a part and
 * chDB has no async-insert buffer. JSONEachRow bodies are produced here with
 * JSON.stringify (one line per row, never a blank line), so chDB's inline-body
 * parsing cannot cut them short.
 */
export async function insertSpans(
  client: ClickHouseClient,
  spans: readonly SpanRecord[],
  opts: { deduplicationToken?: string } = {},
): Promise<void> {
  if (spans.length === 0) return;
  await client.insert({
    table: 'spans',
    values: spans.map(toSpanInsertRow),
    format: 'JSONEachRow',
    ...(opts.deduplicationToken === undefined ? {} : { clickhouse_settings: { insert_deduplication_token: opts.deduplicationToken } }),
  });
}
