import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';
import { SPANS_ARROW_SCHEMA_VERSION } from '@telltale/store/encode';
import type { LoopSignals } from '../loops/loopSignals.js';
import type { SpanLimits } from '../normalise/spanLimits.js';
import { Spool, type SpoolBatch, type SpoolRecovery } from '../spool/Spool.js';
import { SpoolDrainer, type SpoolRecordConverter } from '../spool/SpoolDrainer.js';
import { SpoolFullError } from '../spool/SpoolFullError.js';
import type { SpoolVersionError } from '../spool/SpoolVersionError.js';
import { decodeExportPayload } from './exportPayload.js';
import { ExportProcessor } from './ExportProcessor.js';
import type { ExportJob, ProcessedExport } from './processExport.js';

/** Room a request may need in the spool (a 16 MiB body encodes to about that much Arrow). */
const OVERLOAD_HEADROOM_BYTES = 16 * 1024 * 1024;

/**
 * Stores Arrow record batch messages as one insert, idempotent for a repeated
 * token, then marks the runs. The messages are read as the insert goes (a
 * spool record at a time) and `runs` fills as they pass: read it only after
 * the messages.
 */
export type InsertSpanBatches = (
  messages: AsyncIterable<Uint8Array>,
  runs: ReadonlyArray<{ projectId: string; runId: string }>,
  deduplicationToken: string,
) => Promise<void>;

export interface CollectorOptions {
  spoolDir: string;
  /** Cap on the spool's bytes on disk; past it, exports get 503 (default 1 GiB). */
  spoolMaxBytes?: number;
  /** Spool segment size (default 16 MiB). */
  spoolSegmentBytes?: number;
  insert: InsertSpanBatches;
  limits?: SpanLimits;
  /** Decoding worker threads; 0 decodes on the event loop (default: cores − 1, 1 to 4). */
  workers?: number;
  /** Spans per insert (default DEFAULT_DRAIN_BATCH_SPANS). */
  maxBatchSpans?: number;
  onInsertError?: (err: unknown, attempt: number) => void;
  /** Each batch stored: its spans and how long its insert took (operators' metrics). */
  onBatchStored?: (spans: number, seconds: number) => void;
  /** Runs between a batch's insert and the spool's ack: fault tests kill the process here. */
  afterInsert?: () => void;
  /** Given the loop signals of every acknowledged request (live loop detection). */
  onAccepted?: (loops: LoopSignals) => void;
  /**
   * Spool payload converters to the spans Arrow schema version of this build,
   * by the version they read (default: none). Spooled records of another
   * version without one are refused (see `onSpoolRefused`).
   */
  converters?: ReadonlyMap<number, SpoolRecordConverter>;
  /**
   * Records of a spans schema version this build neither stores nor converts
   * reached the head of the spool: they are not stored, stay on disk, and the
   * drain stops there until the operator acts (the error says how).
   */
  onSpoolRefused?: (err: SpoolVersionError) => void;
}

/**
 * The write path: export requests are processed (decode, normalise, encode)
 * on worker threads, appended to the durable spool (acknowledged once
 * fsynced), and drained into storage in large idempotent batches.
 */
export class Collector {
  readonly spool: Spool;
  private readonly processor: ExportProcessor;
  private readonly drainer: SpoolDrainer;
  private readonly onAccepted: ((loops: LoopSignals) => void) | undefined;
  /** Per project, the spool's cumulative weight just after its latest append: what its reads wait for. */
  private readonly appendedUpTo = new Map<string, number>();
  /** The spool's cumulative weight at open: what a previous process left, which any project's reads wait for. */
  private readonly recoveredUpTo: number;

  private constructor(spool: Spool, opts: CollectorOptions) {
    this.spool = spool;
    this.recoveredUpTo = spool.ackedWeight + spool.pendingWeight;
    this.onAccepted = opts.onAccepted;
    let lastInsertSeconds = 0;
    this.processor = new ExportProcessor({ ...(opts.workers === undefined ? {} : { workers: opts.workers }), ...(opts.limits === undefined ? {} : { limits: opts.limits }) });
    this.drainer = new SpoolDrainer({
      spool,
      store: async (payloads, token) => {
        const started = performance.now();
        await insertPayloads(opts.insert, payloads, token);
        lastInsertSeconds = (performance.now() - started) / 1000;
      },
      ...(opts.onBatchStored === undefined ? {} : { onStored: (batch: SpoolBatch) => opts.onBatchStored?.(batch.weight, lastInsertSeconds) }),
      ...(opts.maxBatchSpans === undefined ? {} : { maxBatchWeight: opts.maxBatchSpans }),
      onError: (err, _batch: SpoolBatch | undefined, attempt) => opts.onInsertError?.(err, attempt),
      ...(opts.afterInsert === undefined ? {} : { beforeAck: opts.afterInsert }),
      ...(opts.converters === undefined ? {} : { converters: opts.converters }),
      ...(opts.onSpoolRefused === undefined ? {} : { onRefused: opts.onSpoolRefused }),
    });
  }

  /** Opens the spool (replaying what a previous process left in it) and starts draining. */
  static async open(opts: CollectorOptions): Promise<Collector> {
    const spool = await Spool.open({
      dir: opts.spoolDir,
      ...(opts.spoolMaxBytes === undefined ? {} : { maxBytes: opts.spoolMaxBytes }),
      ...(opts.spoolSegmentBytes === undefined ? {} : { segmentBytes: opts.spoolSegmentBytes }),
      version: SPANS_ARROW_SCHEMA_VERSION,
    });
    const collector = new Collector(spool, opts);
    collector.drainer.start();
    return collector;
  }

  get recovery(): SpoolRecovery {
    return this.spool.recovery;
  }

  /** For the OTLP handler's `process`. */
  readonly process = (job: ExportJob): Promise<ProcessedExport> => this.processor.process(job);

  /** For the OTLP handler's `overloaded`: the spool has less room left than one more large request. */
  readonly overloaded = (): boolean => this.spool.freeBytes < Math.min(OVERLOAD_HEADROOM_BYTES, this.spool.capacityBytes / 16);

  /** Set once spooled records of a version this build cannot store stopped the drain (until a restart). */
  get spoolRefusal(): SpoolVersionError | undefined {
    return this.drainer.refusal;
  }

  /** Spans acknowledged but not yet in storage. */
  get backlogSpans(): number {
    return this.spool.pendingWeight;
  }

  /** For the OTLP handler's `commit`: durable in the spool, or a 503-worthy error. */
  readonly commit = async (processed: ProcessedExport): Promise<void> => {
    try {
      await this.spool.append(processed.parts, processed.spanCount);
    } catch (err) {
      if (err instanceof SpoolFullError) throw new TelltaleError({ code: TelltaleErrorCode.UNAVAILABLE, message: `${err.message}; retry later`, cause: err });
      throw new TelltaleError({ code: TelltaleErrorCode.STORAGE, message: `could not write the spool (${(err as Error).message}); retry later`, cause: err });
    }
    this.appendedUpTo.set(processed.projectId, this.spool.ackedWeight + this.spool.pendingWeight);
    try {
      this.onAccepted?.(processed.loops);
    } catch {
      // live detection is best effort: it never fails a request whose spans are kept
    }
  };

  /**
   * Resolves true once every span acknowledged before the call is in
   * storage, false after `timeoutMs`: queries call it first, so a client
   * reads what it was told is kept. With `projectId`, only that project's
   * spans count: the spool drains in order, so the wait ends once the
   * project's latest append is stored, however much other projects sent
   * after it. What a previous process left in the spool (its payloads are
   * not read for their project) counts for every project.
   */
  caughtUp(timeoutMs: number, projectId?: string): Promise<boolean> {
    if (projectId === undefined) return this.drainer.caughtUp(timeoutMs);
    return this.drainer.caughtUp(timeoutMs, this.appendedUpTo.get(projectId) ?? this.recoveredUpTo);
  }

  /** Resolves once every acknowledged span is in storage. */
  drained(timeoutMs?: number): Promise<void> {
    return this.drainer.drained(timeoutMs);
  }

  /**
   * Stops taking work, then drains what it can within `drainTimeoutMs` (what
   * is left stays in the spool for the next start) and closes the spool.
   */
  async close(drainTimeoutMs = 10_000): Promise<void> {
    await this.processor.close();
    await this.drainer.drained(drainTimeoutMs).catch(() => undefined);
    await this.drainer.stop();
    await this.spool.close();
  }
}

async function insertPayloads(insert: InsertSpanBatches, payloads: AsyncIterable<Buffer>, token: string): Promise<void> {
  const runs: { projectId: string; runId: string }[] = [];
  async function* messages(): AsyncGenerator<Uint8Array> {
    for await (const payload of payloads) {
      const decoded = decodeExportPayload(payload);
      for (const runId of decoded.runIds) runs.push({ projectId: decoded.projectId, runId });
      yield decoded.message;
    }
  }
  await insert(messages(), runs, token);
}
