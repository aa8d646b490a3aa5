import type { ClickHouseClient } from '@clickhouse/client';
import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';
import type { ContentHalf, SpanContentRecord } from './SpanContentRecord.js';

/** The content of one span as read back: its record without project, run and start time. */
export type StoredSpanContent = Pick<
  SpanContentRecord,
  'traceId' | 'spanId' | 'input' | 'output' | 'truncated' | 'originalBytes' | 'capture' | 'redactions'
>;

interface ContentRow {
  trace_id: string;
  span_id: string;
  input: string;
  output: string;
  truncated: boolean | number;
  original_bytes: number | string;
  capture: string;
  redactions: number | string;
}

const NS_PER_S = 1_000_000_000n;

/** Nanoseconds as ClickHouse DateTime64(9) text. */
function nsText(ns: bigint): string {
  return `${ns / NS_PER_S}.${(ns % NS_PER_S).toString().padStart(9, '0')}`;
}

/**
 * An insert ends at whichever comes first: few inserts of many rows keep
 * parts (and CPU) down, while the byte bound keeps a batch of prompts near
 * the per-span limit from building one huge body.
 */
const MAX_ROWS_PER_INSERT = 8_192;
const MAX_BYTES_PER_INSERT = 16 * 1024 * 1024;

/**
 * Stores content rows (idempotent for a repeated token: the table
 * deduplicates identical inserts within its window).
 */
export async function insertSpanContent(
  client: ClickHouseClient,
  rows: readonly SpanContentRecord[],
  opts: { deduplicationToken?: string } = {},
): Promise<void> {
  let start = 0;
  while (start < rows.length) {
    const values: Record<string, unknown>[] = [];
    let bytes = 0;
    for (let i = start; i < rows.length && values.length < MAX_ROWS_PER_INSERT && bytes < MAX_BYTES_PER_INSERT; i++) {
      const r = rows[i]!;
      const input = JSON.stringify(r.input);
      const output = JSON.stringify(r.output);
      bytes += input.length + output.length;
      values.push({
        project_id: r.projectId,
        trace_id: r.traceId,
        span_id: r.spanId,
        start_time: nsText(r.startTimeUnixNano),
        input,
        output,
        truncated: r.truncated,
        original_bytes: r.originalBytes,
        capture: r.capture,
        redactions: r.redactions,
      });
    }
    // the same rows always split at the same places, so a retried batch repeats its tokens
    const token = opts.deduplicationToken === undefined ? undefined : `${opts.deduplicationToken}:${start}`;
    await client.insert({
      table: 'span_content',
      format: 'JSONEachRow',
      values,
      clickhouse_settings: {
        async_insert: 0,
        ...(token === undefined ? {} : { insert_deduplication_token: token }),
      },
    });
    start += values.length;
  }
}

function halfOf(text: string): ContentHalf {
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed !== null && typeof parsed === 'object' ? parsed : {};
  } catch {
    return {};
  }
}

/** The most spans whose content one run read returns. */
export const MAX_RUN_CONTENT_SPANS = 500;

/**
 * The content of a run's spans, found through the spans table (a span's
 * run may change after ingest when its trace's run is resolved): one span
 * with `spanId`, else the first MAX_RUN_CONTENT_SPANS spans with content.
 */
export async function getSpanContent(
  client: ClickHouseClient,
  projectId: string,
  runId: string,
  spanId?: string,
): Promise<StoredSpanContent[]> {
  const result = await client.query({
    query: `SELECT trace_id, span_id, input, output, truncated, original_bytes, capture, redactions
FROM span_content FINAL
WHERE project_id = {projectId:String}
  AND (trace_id, span_id) IN (
    SELECT trace_id, span_id FROM spans
    WHERE project_id = {projectId:String} AND run_id = {runId:String}
      ${spanId === undefined ? '' : 'AND span_id = {spanId:String}'}
  )
ORDER BY start_time, span_id
LIMIT ${MAX_RUN_CONTENT_SPANS}`,
    format: 'JSONEachRow',
    query_params: { projectId, runId, ...(spanId === undefined ? {} : { spanId }) },
  });
  const rows = await result.json<ContentRow>();
  return rows.map((r) => ({
    traceId: r.trace_id,
    spanId: r.span_id,
    input: halfOf(r.input),
    output: halfOf(r.output),
    truncated: r.truncated === true || r.truncated === 1,
    originalBytes: Number(r.original_bytes),
    capture: r.capture,
    redactions: Number(r.redactions),
  }));
}

/** Content older than this many days is dropped (whole daily parts), independently of the spans. */
export async function setContentRetentionDays(client: ClickHouseClient, days: number): Promise<void> {
  if (!Number.isInteger(days) || days < 1)
    throw new TelltaleError({
      code: TelltaleErrorCode.INVALID_CONFIG,
      message: `content retention must be a whole number of days ≥ 1, got ${days}`,
    });
  await client.command({ query: `ALTER TABLE span_content MODIFY TTL toDateTime(start_time) + INTERVAL ${days} DAY` });
}
