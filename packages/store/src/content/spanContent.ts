import type { ClickHouseClient } from '@clickhouse/client';
import type { TableStatements } from '../cluster/clusterMigrations.js';
import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';
import { insertArrowBatches, type ArrowInsertTarget, type SpanBatchMessages } from '../spans/insertSpanBatches.js';
import type { InsertTransport } from '../insertTransport.js';
import { CONTENT_ARROW_COLUMNS, CONTENT_ARROW_SCHEMA_MESSAGE } from './arrow/contentArrowSchema.js';
import type { SpanContentRecord } from './SpanContentRecord.js';
import { readStoredHalfSized } from './storedHalf.js';

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

/** `INSERT INTO span_content (…)` with the Arrow schema's columns. */
const CONTENT_TARGET: ArrowInsertTarget = {
  insert: `INSERT INTO span_content (${CONTENT_ARROW_COLUMNS.join(', ')})`,
  schemaMessage: CONTENT_ARROW_SCHEMA_MESSAGE,
};

/**
 * Stores content record batch messages (encodeContentRecordBatch) as ONE
 * ArrowStream insert, as spans are stored (insertSpanBatches): one part per
 * partition, idempotent for a repeated token (the table deduplicates
 * identical inserts within its window).
 */
export async function insertSpanContentBatches(
  client: ClickHouseClient,
  transport: InsertTransport,
  messages: SpanBatchMessages,
  opts: { deduplicationToken?: string } = {},
): Promise<void> {
  await insertArrowBatches(client, transport, CONTENT_TARGET, messages, opts);
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
  return rows.map((r) => {
    const input = readStoredHalfSized(r.input);
    const output = readStoredHalfSized(r.output);
    return {
      traceId: r.trace_id,
      spanId: r.span_id,
      input: input.half,
      output: output.half,
      truncated: r.truncated === true || r.truncated === 1,
      // a verbatim list was counted by its JSON's bytes: the content is measured by its strings' bytes
      originalBytes: Number(r.original_bytes) + input.extraBytes + output.extraBytes,
      capture: r.capture,
      redactions: Number(r.redactions),
    };
  });
}

/** The most span ids one run's content index returns. */
export const MAX_RUN_CONTENT_SPAN_IDS = 10_000;

/** The spans of a run with content kept (their ids, in id order, at most MAX_RUN_CONTENT_SPAN_IDS): the table's keys only. */
export async function getContentSpanIds(client: ClickHouseClient, projectId: string, runId: string): Promise<string[]> {
  const result = await client.query({
    query: `SELECT DISTINCT span_id
FROM span_content
WHERE project_id = {projectId:String}
  AND (trace_id, span_id) IN (
    SELECT trace_id, span_id FROM spans WHERE project_id = {projectId:String} AND run_id = {runId:String}
  )
ORDER BY span_id
LIMIT ${MAX_RUN_CONTENT_SPAN_IDS}`,
    format: 'JSONCompactEachRow',
    query_params: { projectId, runId },
  });
  return (await result.json<[string]>()).map(([id]) => id);
}

/** Content older than this many days is dropped (whole daily parts), independently of the spans. */
export async function setContentRetentionDays(
  client: ClickHouseClient,
  days: number,
  statements: TableStatements = (sql) => [sql],
): Promise<void> {
  if (!Number.isInteger(days) || days < 1)
    throw new TelltaleError({
      code: TelltaleErrorCode.INVALID_CONFIG,
      message: `content retention must be a whole number of days ≥ 1, got ${days}`,
    });
  for (const query of statements(`ALTER TABLE span_content MODIFY TTL toDateTime(start_time) + INTERVAL ${days} DAY`))
    await client.command({ query });
}
