import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';
import type { OtlpPartialSuccess } from '../otlp/responses.js';
import type { ExportJob, ProcessedExport } from './processExport.js';

/** What an OTLP receiver (HTTP or gRPC) does with a request whose body is in memory. */
export interface ExportIntake {
  /** Decodes, normalises and encodes a request (an ExportProcessor: worker threads or inline). */
  process: (job: ExportJob) => Promise<ProcessedExport>;
  /**
   * Makes the accepted spans durable (the spool's fsynced append); the
   * request is acknowledged only after it resolves. Throw a TelltaleError
   * UNAVAILABLE/STORAGE to refuse for now (HTTP 503, gRPC UNAVAILABLE).
   */
  commit: (processed: ProcessedExport) => Promise<void>;
  /** True when `commit` would refuse for lack of room: refuse before reading or decoding the body. */
  overloaded?: () => boolean;
  /**
   * Admission per project after decoding (e.g. an ingest quota): undefined
   * admits the spans; otherwise the request is refused as rate limited.
   */
  admit?: (projectId: string, spanCount: number) => { retryAfterSeconds: number } | undefined;
  /** After a request's accepted spans are durable (or it had none): what it held (operators' counters). */
  onIngested?: (processed: ProcessedExport) => void;
  /** Called once per export request when it is answered (access logs); not on the request's path. */
  onDone?: (done: ExportDone) => void;
}

/** One answered export request, as an access log records it. */
export interface ExportDone {
  protocol: 'http' | 'grpc';
  /** HTTP status, or the gRPC status code (0: OK). */
  status: number;
  /** Undefined when the request was refused before its key was checked, or the key was refused. */
  projectId: string | undefined;
  /** Spans decoded from the request (0 when it was refused before decoding). */
  spans: number;
  /** Body bytes received (after decompression for gRPC). */
  bytes: number;
  durationMs: number;
}

/** Filled in by ingestExport as it goes, for the access log. */
export interface ExportCounts {
  spans: number;
}

/** Over a project's quota: HTTP 429, gRPC RESOURCE_EXHAUSTED, both with this retry delay. */
export class RateLimitedError extends TelltaleError {
  constructor(readonly retryAfterSeconds: number) {
    super({ code: TelltaleErrorCode.RATE_LIMITED, message: `over the project's ingest quota: retry in ${retryAfterSeconds} s` });
  }
}

/** Throws UNAVAILABLE when the spool cannot take more: said before a body is read or decoded. */
export function refuseWhenOverloaded(intake: ExportIntake): void {
  if (intake.overloaded?.() === true) {
    throw new TelltaleError({ code: TelltaleErrorCode.UNAVAILABLE, message: 'spool is full: storage is behind or unreachable; retry later' });
  }
}

/**
 * Processes, admits and commits one export request; resolves with the
 * partial success to answer (undefined: everything accepted, no warning)
 * once the accepted spans are durable. Throws a TelltaleError otherwise
 * (a RateLimitedError over the quota).
 */
export async function ingestExport(intake: ExportIntake, job: ExportJob, counts?: ExportCounts): Promise<OtlpPartialSuccess | undefined> {
  const processed = await intake.process(job);
  if (counts !== undefined) counts.spans = processed.spanCount;
  const refused = intake.admit?.(job.projectId, processed.spanCount);
  if (refused !== undefined) throw new RateLimitedError(refused.retryAfterSeconds);
  if (processed.spanCount > 0) await intake.commit(processed);
  intake.onIngested?.(processed);
  const { rejectedSpans, errors } = processed;
  // OTLP: a fully accepted request may still carry a warning (rejected 0, a message)
  return rejectedSpans > 0 || errors.length > 0 ? { rejectedSpans, errorMessage: errors.join('; ') } : undefined;
}
