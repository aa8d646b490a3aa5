// the chDB-free entry: this runs in worker threads
import {
  encodeContentRecordBatch,
  encodeSpanRecordBatch,
  type SpanContentRecord,
  type SpanRecord,
} from '@telltale/store/encode';
import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';

/**
 * The spool record version of export payloads written by this build:
 *   1: meta {"p", "r"} · spans Arrow message (spans Arrow schema version 1);
 *   2: meta {"p", "r", "c"} · content JSON of "c" bytes · spans Arrow message (same Arrow schema);
 *   3: meta {"p", "r", "c"} · content Arrow message of "c" bytes (span_content Arrow schema version 1)
 *      · spans Arrow message (spans Arrow schema version 1).
 * Bump it with any change to the payload that a reader of the previous
 * version would misread, either Arrow schema included, and add a converter
 * from the previous version (SPOOL_PAYLOAD_CONVERTERS). The meta's optional
 * "k" (the key of the request's run facts, RequestFactsBuffer) needs none: a
 * reader without it ignores it, and the run facts are then finalised by SQL.
 */
export const SPOOL_PAYLOAD_VERSION = 3;

/**
 * What one accepted export request becomes in the spool: its project and run
 * ids (so the drainer can mark runs for the run facts without reading rows),
 * the content moved out of its spans as one Arrow record batch message of
 * the span_content schema, then its spans as one Arrow record batch message,
 * each ready to be concatenated with others into one ArrowStream insert.
 *
 *   meta length u32 LE · meta JSON {"p": project, "r": [run ids], "c": content bytes, "k": facts key} · content Arrow message · spans Arrow message
 */
export interface ExportPayload {
  projectId: string;
  runIds: string[];
  /** The content of the spans as an Arrow message (encodeContentRecordBatch); undefined when there is none. */
  content: Uint8Array | undefined;
  /** An encapsulated Arrow IPC RecordBatch message (see @telltale/store). */
  message: Uint8Array;
  /** The key of the request's run facts in this process's RequestFactsBuffer, when they were asked for. */
  factsKey: string | undefined;
}

export interface PayloadOptions {
  /** The key of the request's run facts (RequestFactsBuffer.issue). */
  factsKey?: string;
}

/** Payload parts for `Spool.append` (written back to back, never concatenated in memory). */
export function encodeExportPayload(
  projectId: string,
  spans: readonly SpanRecord[],
  contents: readonly SpanContentRecord[] = [],
  opts: PayloadOptions = {},
): Uint8Array[] {
  return exportPayloadParts(
    projectId,
    [...new Set(spans.map((s) => s.runId))],
    contents,
    encodeSpanRecordBatch(spans),
    opts,
  );
}

/** Payload parts of spans already encoded as the Arrow message `spans` (the fused protobuf path encodes its own). */
export function exportPayloadParts(
  projectId: string,
  runIds: readonly string[],
  contents: readonly SpanContentRecord[],
  spans: Uint8Array,
  opts: PayloadOptions = {},
): Uint8Array[] {
  return payloadParts(
    projectId,
    runIds,
    contents.length === 0 ? undefined : encodeContentRecordBatch(contents),
    spans,
    opts.factsKey,
  );
}

function payloadParts(
  projectId: string,
  runIds: readonly string[],
  content: Uint8Array | undefined,
  spans: Uint8Array,
  factsKey?: string,
): Uint8Array[] {
  const meta = Buffer.from(
    JSON.stringify({
      p: projectId,
      r: runIds,
      c: content?.length ?? 0,
      ...(factsKey === undefined ? {} : { k: factsKey }),
    }),
  );
  const length = Buffer.allocUnsafe(4);
  length.writeUInt32LE(meta.length, 0);
  return content === undefined ? [length, meta, spans] : [length, meta, content, spans];
}

function corrupt(message: string): TelltaleError {
  return new TelltaleError({ code: TelltaleErrorCode.SPOOL_CORRUPT, message });
}

interface Sections {
  projectId: string;
  runIds: string[];
  factsKey: string | undefined;
  /** The content section's bytes (JSON in version 2, an Arrow message in version 3). */
  content: Buffer;
  message: Buffer;
}

/** The sections of a version 1, 2 or 3 payload: they share the framing. */
function sectionsOf(payload: Buffer): Sections {
  if (payload.length < 4) throw corrupt('spool payload is shorter than its metadata length');
  const metaBytes = payload.readUInt32LE(0);
  if (4 + metaBytes > payload.length) throw corrupt('spool payload is shorter than its metadata length');
  let meta: { p?: unknown; r?: unknown; c?: unknown; k?: unknown };
  try {
    meta = JSON.parse(payload.toString('utf8', 4, 4 + metaBytes)) as typeof meta;
  } catch {
    throw corrupt('spool payload has malformed metadata');
  }
  if (typeof meta.p !== 'string' || !Array.isArray(meta.r) || !meta.r.every((r) => typeof r === 'string')) {
    throw corrupt('spool payload has malformed metadata');
  }
  const contentBytes = meta.c === undefined ? 0 : meta.c;
  if (typeof contentBytes !== 'number' || !Number.isInteger(contentBytes) || contentBytes < 0)
    throw corrupt('spool payload has a malformed content length');
  const start = 4 + metaBytes;
  if (start + contentBytes > payload.length) throw corrupt('spool payload is shorter than its content length');
  return {
    projectId: meta.p,
    runIds: meta.r,
    factsKey: typeof meta.k === 'string' ? meta.k : undefined,
    content: payload.subarray(start, start + contentBytes),
    message: payload.subarray(start + contentBytes),
  };
}

/** Decodes a version 3 payload (a version 1 payload, which has no "c", reads as one without content). */
export function decodeExportPayload(payload: Buffer): ExportPayload {
  const s = sectionsOf(payload);
  return {
    projectId: s.projectId,
    runIds: s.runIds,
    content: s.content.length === 0 ? undefined : s.content,
    message: s.message,
    factsKey: s.factsKey,
  };
}

/**
 * Version 1 payloads as version 3: the same bytes, since a version 3 reader
 * takes a missing content length as no content (records are never rewritten).
 */
export function convertV1Payload(payload: Buffer): Buffer {
  decodeExportPayload(payload); // refuse what version 3 could not read, here rather than mid-insert
  return payload;
}

/** The content records of a version 2 payload's JSON section. */
type ContentWireV2 = Omit<SpanContentRecord, 'startTimeUnixNano'> & { startTimeUnixNano: string };

/**
 * Version 2 payloads as version 3: the content JSON becomes a span_content
 * Arrow message with the same rows (each half stored as its JSON, as version
 * 2 stored it); the spans message is kept as it is.
 */
export function convertV2Payload(payload: Buffer): Buffer {
  const s = sectionsOf(payload);
  if (s.content.length === 0) return payload;
  const malformed = (): TelltaleError => corrupt('spool payload version 2 has malformed content');
  let wire: unknown;
  try {
    wire = JSON.parse(s.content.toString('utf8'));
  } catch {
    throw malformed();
  }
  if (!Array.isArray(wire)) throw malformed();
  const records = (wire as ContentWireV2[]).map((c): SpanContentRecord => ({
    ...c,
    startTimeUnixNano: BigInt(c.startTimeUnixNano),
  }));
  return Buffer.concat(payloadParts(s.projectId, s.runIds, encodeContentRecordBatch(records), s.message));
}

/** The converters to SPOOL_PAYLOAD_VERSION this build has, by the version they read. */
export const SPOOL_PAYLOAD_CONVERTERS: ReadonlyMap<number, (payload: Buffer) => Buffer> = new Map([
  [1, convertV1Payload],
  [2, convertV2Payload],
]);
