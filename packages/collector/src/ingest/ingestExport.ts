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
export async function ingestExport(intake: ExportIntake, job: ExportJob): Promise<OtlpPartialSuccess | undefined> {
  const processed = await intake.process(job);
  const refused = intake.admit?.(job.projectId, processed.spanCount);
  if (refused !== undefined) throw new RateLimitedError(refused.retryAfterSeconds);
  if (processed.spanCount > 0) await intake.commit(processed);
  intake.onIngested?.(processed);
  const { rejectedSpans, errors } = processed;
  // OTLP: a fully accepted request may still carry a warning (rejected 0, a message)
  return rejectedSpans > 0 || errors.length > 0 ? { rejectedSpans, errorMessage: errors.join('; ') } : undefined;
}
