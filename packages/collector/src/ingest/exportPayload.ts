// the chDB-free entry: this runs in worker threads
import { encodeSpanRecordBatch, type SpanContentRecord, type SpanRecord } from '@telltale/store/encode';
import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';

/**
 * The spool record version of export payloads written by this build:
 *   1: meta {"p", "r"} · spans Arrow message (spans Arrow schema version 1);
 *   2: meta {"p", "r", "c"} · content JSON of "c" bytes · spans Arrow message (same Arrow schema).
 * Bump it with any change to the payload, the spans Arrow schema included,
 * and add a converter from the previous version (SPOOL_PAYLOAD_CONVERTERS).
 */
export const SPOOL_PAYLOAD_VERSION = 2;

/**
 * What one accepted export request becomes in the spool: its project and run
 * ids (so the drainer can mark runs for the run facts without reading rows),
 * the content moved out of its spans, then its spans as one Arrow record
 * batch message, ready to be concatenated with others into one ArrowStream
 * insert.
 *
 *   meta length u32 LE · meta JSON {"p": project, "r": [run ids], "c": content bytes} · content JSON · Arrow message
 */
export interface ExportPayload {
  projectId: string;
  runIds: string[];
  /** The content of the spans (empty for a version 1 payload, or a project that keeps none). */
  contents: SpanContentRecord[];
  /** An encapsulated Arrow IPC RecordBatch message (see @telltale/store). */
  message: Uint8Array;
}

type ContentWire = Omit<SpanContentRecord, 'startTimeUnixNano'> & { startTimeUnixNano: string };

/** Payload parts for `Spool.append` (written back to back, never concatenated in memory). */
export function encodeExportPayload(
  projectId: string,
  spans: readonly SpanRecord[],
  contents: readonly SpanContentRecord[] = [],
): Uint8Array[] {
  return exportPayloadParts(
    projectId,
    [...new Set(spans.map((s) => s.runId))],
    contents,
    spans.length === 0 ? undefined : encodeSpanRecordBatch(spans),
  );
}

/** Payload parts of spans already encoded as `message` (the fused protobuf path); see encodeExportPayload. */
export function exportPayloadParts(
  projectId: string,
  runIds: readonly string[],
  contents: readonly SpanContentRecord[],
  message: Uint8Array = encodeSpanRecordBatch([]),
): Uint8Array[] {
  const content =
    contents.length === 0
      ? Buffer.alloc(0)
      : Buffer.from(
          JSON.stringify(
            contents.map((c): ContentWire => ({ ...c, startTimeUnixNano: c.startTimeUnixNano.toString() })),
          ),
        );
  const meta = Buffer.from(JSON.stringify({ p: projectId, r: runIds, c: content.length }));
  const length = Buffer.allocUnsafe(4);
  length.writeUInt32LE(meta.length, 0);
  return content.length === 0 ? [length, meta, message] : [length, meta, content, message];
}

function corrupt(message: string): TelltaleError {
  return new TelltaleError({ code: TelltaleErrorCode.SPOOL_CORRUPT, message });
}

/** Decodes a version 2 payload (a version 1 payload, which has no "c", reads as one without content). */
export function decodeExportPayload(payload: Buffer): ExportPayload {
  const metaBytes = payload.readUInt32LE(0);
  const meta = JSON.parse(payload.toString('utf8', 4, 4 + metaBytes)) as { p: unknown; r: unknown; c?: unknown };
  if (typeof meta.p !== 'string' || !Array.isArray(meta.r) || !meta.r.every((r) => typeof r === 'string')) {
    throw corrupt('spool payload has malformed metadata');
  }
  const contentBytes = meta.c === undefined ? 0 : meta.c;
  if (typeof contentBytes !== 'number' || !Number.isInteger(contentBytes) || contentBytes < 0)
    throw corrupt('spool payload has a malformed content length');
  const start = 4 + metaBytes;
  if (start + contentBytes > payload.length) throw corrupt('spool payload is shorter than its content length');
  let contents: SpanContentRecord[] = [];
  if (contentBytes > 0) {
    const wire = JSON.parse(payload.toString('utf8', start, start + contentBytes)) as ContentWire[];
    contents = wire.map((c) => ({ ...c, startTimeUnixNano: BigInt(c.startTimeUnixNano) }));
  }
  return { projectId: meta.p, runIds: meta.r, contents, message: payload.subarray(start + contentBytes) };
}

/**
 * Version 1 payloads as version 2: the same bytes, since a version 2 reader
 * takes a missing content length as no content (records are never rewritten).
 */
export function convertV1Payload(payload: Buffer): Buffer {
  decodeExportPayload(payload); // refuse what version 2 could not read, here rather than mid-insert
  return payload;
}

/** The converters to SPOOL_PAYLOAD_VERSION this build has, by the version they read. */
export const SPOOL_PAYLOAD_CONVERTERS: ReadonlyMap<number, (payload: Buffer) => Buffer> = new Map([
  [1, convertV1Payload],
]);
