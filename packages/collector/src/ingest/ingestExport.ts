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
  /**
   * Hears every export request once it is answered (accepted, partly accepted
   * or refused) with what it held: access logs, operators' counters. Called
   * after the answer, off the request's path.
   */
  onDone?: (done: ExportDone) => void;
}

/** What an accepted request held, as processed: spans kept, rejected by reason, values cut by limit. */
export type IngestedExport = Pick<ProcessedExport, 'spanCount' | 'rejectedSpans' | 'rejectedBy' | 'cut'>;

/** Filled in by a receiver and ingestExport as a request goes, for its ExportDone. */
export interface ExportProgress {
  /** Undefined until the key was checked (and when it was refused). */
  projectId: string | undefined;
  /** Spans accepted from the request once decoded (0 when it was refused before decoding). */
  spans: number;
  /** Body bytes received (after decompression for gRPC). */
  bytes: number;
  /** Set once the accepted spans are durable (or the request had none to keep). */
  ingested?: IngestedExport;
}

/** One answered export request. */
export interface ExportDone extends ExportProgress {
  protocol: 'http' | 'grpc';
  /** HTTP status, or the gRPC status code (0: OK). */
  status: number;
  durationMs: number;
  /** Why the request was refused (absent when it was accepted). */
  error?: TelltaleError;
}

/** A new request's progress. */
export function startExportProgress(): ExportProgress {
  return { projectId: undefined, spans: 0, bytes: 0 };
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
export async function ingestExport(intake: ExportIntake, job: ExportJob, progress?: ExportProgress): Promise<OtlpPartialSuccess | undefined> {
  const processed = await intake.process(job);
  if (progress !== undefined) progress.spans = processed.spanCount;
  const refused = intake.admit?.(job.projectId, processed.spanCount);
  if (refused !== undefined) throw new RateLimitedError(refused.retryAfterSeconds);
  if (processed.spanCount > 0) await intake.commit(processed);
  if (progress !== undefined) progress.ingested = processed;
  const { rejectedSpans, errors } = processed;
  // OTLP: a fully accepted request may still carry a warning (rejected 0, a message)
  return rejectedSpans > 0 || errors.length > 0 ? { rejectedSpans, errorMessage: errors.join('; ') } : undefined;
}
