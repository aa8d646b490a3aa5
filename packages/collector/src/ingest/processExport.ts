import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';
import { decodeTraceRequestJson } from '../otlp/jsonDecoder.js';
import { decodeTraceRequestProto } from '../otlp/protoDecoder.js';
import { OtlpDecodeError } from '../otlp/OtlpDecodeError.js';
import type { OtlpEncoding } from '../otlp/responses.js';
import { normaliseRequest } from '../normalise/normaliseRequest.js';
import type { LimitCounts, SpanLimits } from '../normalise/spanLimits.js';
import type { ContentCounts, RejectCounts } from '../normalise/normaliseRequest.js';
import { loopSignalsOf, type LoopSignals } from '../loops/loopSignals.js';
import { processProtoExport } from '../fused/processProtoExport.js';
import { joinBody, type ExportBody } from './BodyJoiner.js';
import { encodeExportPayload } from './exportPayload.js';

export interface ExportJob {
  /** Whole, or in the pieces it was read in: joined where it is decoded. */
  body: ExportBody;
  encoding: OtlpEncoding;
  /** From the caller's credentials, never from the payload. */
  projectId: string;
  nowMs: number;
  /** false: the project keeps no content (dropped and counted). Default true. */
  keepContent?: boolean;
  /** The key of the request's run facts (RequestFactsBuffer), named in its payload; computed after the answer. */
  factsKey?: string;
}

/** An export request, decoded, normalised and encoded for the spool. */
export interface ProcessedExport {
  /** The caller's project (the job's). */
  projectId: string;
  /** Spool payload parts; empty when no span was accepted. */
  parts: Uint8Array[];
  spanCount: number;
  rejectedSpans: number;
  /** `rejectedSpans` by reason. */
  rejectedBy: RejectCounts;
  /** What the limits cut from the accepted spans. */
  cut: LimitCounts;
  errors: string[];
  /** Content kept, cut and dropped. */
  content: ContentCounts;
  /** What live loop detection needs of the accepted spans. */
  loops: LoopSignals;
}

/**
 * The CPU-heavy part of an export: decode (protobuf or JSON), normalise under
 * the limits, encode as an Arrow record batch. Pure, so it runs the same
 * inline or in a worker thread. A body that cannot be decoded is a 400.
 * Protobuf takes the fused path (processProtoExport); a body it refuses is
 * decoded again by the object path, so the error is the object path's, word
 * for word. `join` makes a body in pieces one buffer; nothing of the result
 * refers to that buffer, so a thread may reuse it for the next body.
 */
export function processExport(
  job: ExportJob,
  limits: SpanLimits | undefined,
  join: (body: ExportBody) => Uint8Array = joinBody,
): ProcessedExport {
  const body = join(job.body);
  if (job.encoding === 'proto') {
    try {
      return processProtoExport(body, job.projectId, {
        ...(limits === undefined ? {} : { limits }),
        nowMs: job.nowMs,
        keepContent: job.keepContent !== false,
        ...(job.factsKey === undefined ? {} : { factsKey: job.factsKey }),
      });
    } catch (err) {
      if (!(err instanceof OtlpDecodeError)) throw err;
    }
  }
  return processExportObjects({ ...job, body }, limits);
}

/** processExport by the object path: decode into OTLP objects, normalise into records, encode them. */
export function processExportObjects(job: ExportJob, limits: SpanLimits | undefined): ProcessedExport {
  let request;
  try {
    const body = joinBody(job.body);
    request = job.encoding === 'proto' ? decodeTraceRequestProto(body) : decodeTraceRequestJson(body);
  } catch (err) {
    if (err instanceof OtlpDecodeError)
      throw new TelltaleError({ code: TelltaleErrorCode.BAD_REQUEST, message: err.message, cause: err });
    throw err;
  }
  const { spans, rejectedSpans, rejectedBy, cut, errors, contents, content } = normaliseRequest(
    request,
    job.projectId,
    {
      ...(limits === undefined ? {} : { limits }),
      nowMs: job.nowMs,
      keepContent: job.keepContent !== false,
    },
  );
  return {
    projectId: job.projectId,
    parts:
      spans.length === 0
        ? []
        : encodeExportPayload(
            job.projectId,
            spans,
            contents,
            job.factsKey === undefined ? {} : { factsKey: job.factsKey },
          ),
    spanCount: spans.length,
    rejectedSpans,
    rejectedBy,
    cut,
    errors,
    content,
    loops: loopSignalsOf(job.projectId, spans),
  };
}
