import { OPEN_MODE_PROJECT, TelltaleError, TelltaleErrorCode } from '@telltale/semconv';
import { DEFAULT_MAX_BODY_BYTES } from '../otlp/limits.js';
import type { OtlpPartialSuccess } from '../otlp/responses.js';
import type { Spool } from '../spool/Spool.js';
import { SpoolFullError } from '../spool/SpoolFullError.js';
import type { CollectorLimits, CollectorObservers, CollectorPolicy } from './CollectorOptions.js';
import type { ExportDone, ExportProgress } from './ExportDone.js';
import type { ExportProcessor } from './ExportProcessor.js';
import type { ExportJob, ProcessedExport } from './processExport.js';
import { RateLimitedError } from './RateLimitedError.js';
import type { RequestFactsBuffer } from './RequestFactsBuffer.js';

/** Room a request may need in the spool (a 16 MiB body encodes to about that much Arrow). */
const OVERLOAD_HEADROOM_BYTES = 16 * 1024 * 1024;

/** The receivers' limits, defaults filled in. */
export interface ReceiverLimits {
  maxBodyBytes: number;
  maxInFlightBytes: number;
  retryAfterSeconds: number;
}

/**
 * The request-to-spool path both receivers (OTLP/HTTP, OTLP/gRPC) share, in
 * the order a request takes it: `authenticate` (before the body is read),
 * `refuseWhenOverloaded`, then — once the receiver has the body — `ingest`:
 * held while storage is far behind (`paced`), process on the workers,
 * admit, commit to the spool (fsynced). The receiver
 * answers, then reports the request to `done`.
 */
export class ExportIntake {
  readonly limits: ReceiverLimits;
  /** Per project, the spool's cumulative weight just after its latest append: what its reads wait for. */
  private readonly appendedUpTo = new Map<string, number>();

  constructor(
    private readonly spool: Spool,
    private readonly processor: ExportProcessor,
    private readonly policy: CollectorPolicy,
    private readonly observe: CollectorObservers,
    limits: CollectorLimits,
    /** Where requests' run facts go, when they are computed (ExportJob.factsKey). */
    private readonly facts?: RequestFactsBuffer,
    /** Resolves when a request may go on to be processed: storage has kept up (bounded wait). */
    private readonly paced?: () => Promise<void>,
  ) {
    const maxBodyBytes = limits.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.limits = {
      maxBodyBytes,
      // one body of the largest size always fits
      maxInFlightBytes: Math.max(limits.maxInFlightBytes ?? 256 * 1024 * 1024, maxBodyBytes),
      retryAfterSeconds: limits.retryAfterSeconds ?? 2,
    };
  }

  /** The caller's project from its `authorization`; UNAUTHORIZED when the policy knows none. */
  async authenticate(authorization: string | undefined, progress: ExportProgress): Promise<string> {
    const projectId =
      this.policy.authenticate === undefined ? OPEN_MODE_PROJECT : await this.policy.authenticate(authorization);
    if (projectId === undefined)
      throw new TelltaleError({ code: TelltaleErrorCode.UNAUTHORIZED, message: 'missing or invalid API key' });
    progress.projectId = projectId;
    return projectId;
  }

  /** Throws UNAVAILABLE when the spool has less room left than one more large request: said before a body is read or decoded. */
  refuseWhenOverloaded(): void {
    if (this.spool.freeBytes < Math.min(OVERLOAD_HEADROOM_BYTES, this.spool.capacityBytes / 16)) {
      throw new TelltaleError({
        code: TelltaleErrorCode.UNAVAILABLE,
        message: 'spool is full: storage is behind or unreachable; retry later',
      });
    }
  }

  /**
   * Processes, admits and commits one export request; resolves with the
   * partial success to answer (undefined: everything accepted, no warning)
   * once the accepted spans are durable. Throws a TelltaleError otherwise
   * (a RateLimitedError over the quota).
   */
  async ingest(job: ExportJob, progress: ExportProgress): Promise<OtlpPartialSuccess | undefined> {
    const keepContent = (await this.policy.contentStored?.(job.projectId)) ?? true;
    const stages = (progress.stages ??= {});
    if (this.paced !== undefined) {
      const holding = performance.now();
      await this.paced();
      stages.hold = performance.now() - holding;
    }
    const timing = { waitMs: 0, processMs: 0 };
    const factsKey = this.facts?.issue();
    let committed = false;
    try {
      const processed = await this.processor.process(
        { ...job, keepContent, ...(factsKey === undefined ? {} : { factsKey }) },
        timing,
      );
      stages.wait = timing.waitMs;
      stages.process = timing.processMs;
      progress.spans = processed.spanCount;
      const refused = this.policy.admit?.(job.projectId, processed.spanCount);
      if (refused !== undefined) throw new RateLimitedError(refused.retryAfterSeconds);
      if (processed.spanCount > 0) {
        const committing = performance.now();
        await this.commit(processed);
        committed = true;
        stages.commit = performance.now() - committing;
      }
      progress.ingested = processed;
      const { rejectedSpans, errors } = processed;
      // OTLP: a fully accepted request may still carry a warning (rejected 0, a message)
      return rejectedSpans > 0 || errors.length > 0 ? { rejectedSpans, errorMessage: errors.join('; ') } : undefined;
    } finally {
      // facts of a request the spool does not hold would never be taken
      if (!committed && factsKey !== undefined) this.facts?.forget(factsKey);
    }
  }

  /** One answered request, for the observer. */
  done(done: ExportDone): void {
    this.observe.onDone?.(done);
  }

  /** The spool's cumulative weight just after the project's latest append (undefined: none since open). */
  appendedUpToOf(projectId: string): number | undefined {
    return this.appendedUpTo.get(projectId);
  }

  /** Durable in the spool, or a 503-worthy error. */
  private async commit(processed: ProcessedExport): Promise<void> {
    try {
      await this.spool.append(processed.parts, processed.spanCount);
    } catch (err) {
      if (err instanceof SpoolFullError)
        throw new TelltaleError({
          code: TelltaleErrorCode.UNAVAILABLE,
          message: `${err.message}; retry later`,
          cause: err,
        });
      throw new TelltaleError({
        code: TelltaleErrorCode.STORAGE,
        message: `could not write the spool (${(err as Error).message}); retry later`,
        cause: err,
      });
    }
    this.appendedUpTo.set(processed.projectId, this.spool.ackedWeight + this.spool.pendingWeight);
    try {
      this.observe.onAccepted?.(processed.loops);
    } catch {
      // live detection is best effort: it never fails a request whose spans are kept
    }
  }
}
