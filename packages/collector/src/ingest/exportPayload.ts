// the chDB-free entry: this runs in worker threads
import { encodeSpanRecordBatch, type SpanRecord } from '@telltale/store/encode';
import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';

/**
 * What one accepted export request becomes in the spool: its project and run
 * ids (so the drainer can mark runs for the run facts without reading rows),
 * then its spans as one Arrow record batch message, ready to be concatenated
 * with others into one ArrowStream insert.
 *
 *   meta length u32 LE · meta JSON {"p": project, "r": [run ids]} · Arrow message
 */
export interface ExportPayload {
  projectId: string;
  runIds: string[];
  /** An encapsulated Arrow IPC RecordBatch message (see @telltale/store). */
  message: Uint8Array;
}

/** Payload parts for `Spool.append` (written back to back, never concatenated in memory). */
export function encodeExportPayload(projectId: string, spans: readonly SpanRecord[]): Uint8Array[] {
  const runIds = [...new Set(spans.map((s) => s.runId))];
  const meta = Buffer.from(JSON.stringify({ p: projectId, r: runIds }));
  const length = Buffer.allocUnsafe(4);
  length.writeUInt32LE(meta.length, 0);
  return [length, meta, encodeSpanRecordBatch(spans)];
}

export function decodeExportPayload(payload: Buffer): ExportPayload {
  const metaBytes = payload.readUInt32LE(0);
  const meta = JSON.parse(payload.toString('utf8', 4, 4 + metaBytes)) as { p: unknown; r: unknown };
  if (typeof meta.p !== 'string' || !Array.isArray(meta.r) || !meta.r.every((r) => typeof r === 'string')) {
    throw new TelltaleError({ code: TelltaleErrorCode.SPOOL_CORRUPT, message: 'spool payload has malformed metadata' });
  }
  return { projectId: meta.p, runIds: meta.r, message: payload.subarray(4 + metaBytes) };
}
