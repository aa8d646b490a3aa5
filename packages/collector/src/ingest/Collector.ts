import type { IncomingMessage, ServerResponse } from 'node:http';
import { startOtlpGrpcServer, type OtlpGrpcServer } from '../grpc/otlpGrpcServer.js';
import { createOtlpHttpHandler } from '../http/otlpHttpHandler.js';
import { Spool, type SpoolRecovery } from '../spool/Spool.js';
import { DEFAULT_DRAIN_BATCH_SPANS, type SpoolDrainer } from '../spool/SpoolDrainer.js';
import type { SpoolVersionError } from '../spool/SpoolVersionError.js';
import type { CollectorOptions } from './CollectorOptions.js';
import { ExportIntake } from './ExportIntake.js';
import { ExportProcessor } from './ExportProcessor.js';
import { RequestFactsBuffer } from './RequestFactsBuffer.js';
import { storageDrainer } from './storageDrainer.js';
import { SPOOL_PAYLOAD_VERSION } from './exportPayload.js';

/**
 * Spans acknowledged and not yet stored past which requests wait for the
 * drain: four drain batches. Below it, the backlog is the drain's working
 * set (one batch in its insert, the next gathering); past it storage is not
 * keeping up, and acknowledging faster would only take the cores from it.
 */
export const DEFAULT_BACKLOG_HOLD_SPANS = 4 * DEFAULT_DRAIN_BATCH_SPANS;

/** The longest a request is held for the drain: past it, it goes on (the spool's cap still refuses what will not fit). */
const BACKLOG_HOLD_MS = 1_000;

/**
 * The write path, serving itself. Requests come in on its OTLP receivers
 * (`httpHandler()` for `POST /v1/traces`, `startGrpc()`), are authenticated
 * and checked against its policy, processed (decode, normalise, encode) on
 * worker threads, appended to the durable spool (acknowledged once fsynced;
 * ExportIntake), and drained into storage in large idempotent batches
 * (storageDrainer).
 */
export class Collector {
  readonly spool: Spool;
  private readonly processor: ExportProcessor;
  private readonly intake: ExportIntake;
  private readonly drainer: SpoolDrainer;
  /** The spool's cumulative weight at open: what a previous process left, which any project's reads wait for. */
  private readonly recoveredUpTo: number;
  private http: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  private readonly grpcServers: OtlpGrpcServer[] = [];

  private constructor(spool: Spool, opts: CollectorOptions) {
    this.spool = spool;
    this.recoveredUpTo = spool.ackedWeight + spool.pendingWeight;
    const spans = opts.limits?.spans;
    const facts = opts.storage.runFacts === true ? new RequestFactsBuffer() : undefined;
    this.processor = new ExportProcessor({
      ...(opts.workers === undefined ? {} : { workers: opts.workers }),
      ...(spans === undefined ? {} : { limits: spans }),
      ...(facts === undefined
        ? {}
        : { onFacts: (f) => facts.settle(f.factsKey, { projectId: f.projectId, runs: f.runs, rows: f.rows }) }),
    });
    const drainer = storageDrainer(spool, opts.storage, opts.observe ?? {}, facts);
    this.drainer = drainer;
    const holdSpans =
      opts.limits?.backlogHoldSpans ??
      (opts.storage.maxBatchSpans === undefined ? DEFAULT_BACKLOG_HOLD_SPANS : 4 * opts.storage.maxBatchSpans);
    this.intake = new ExportIntake(
      spool,
      this.processor,
      opts.policy ?? {},
      opts.observe ?? {},
      opts.limits ?? {},
      facts,
      holdSpans > 0 ? () => drainer.backlogAtMost(holdSpans, BACKLOG_HOLD_MS) : undefined,
    );
  }

  /** Opens the spool (replaying what a previous process left in it) and starts draining. */
  static async open(opts: CollectorOptions): Promise<Collector> {
    const spool = await Spool.open({
      dir: opts.spool.dir,
      ...(opts.spool.maxBytes === undefined ? {} : { maxBytes: opts.spool.maxBytes }),
      ...(opts.spool.segmentBytes === undefined ? {} : { segmentBytes: opts.spool.segmentBytes }),
      ...(opts.spool.lock === undefined ? {} : { lock: opts.spool.lock }),
      version: SPOOL_PAYLOAD_VERSION,
    });
    const collector = new Collector(spool, opts);
    collector.drainer.start();
    return collector;
  }

  /**
   * The OTLP/HTTP receiver, for the host to mount on `POST /v1/traces` (the
   * same handler on every call: its requests share one memory budget).
   */
  httpHandler(): (req: IncomingMessage, res: ServerResponse) => void {
    this.http ??= createOtlpHttpHandler(this.intake);
    return this.http;
  }

  /** Starts an OTLP/gRPC receiver (TraceService/Export) on `host:port` (0: any free port); `close` stops it, and so does the collector's. */
  async startGrpc(host: string, port: number): Promise<OtlpGrpcServer> {
    const server = await startOtlpGrpcServer(host, port, this.intake);
    this.grpcServers.push(server);
    return server;
  }

  get recovery(): SpoolRecovery {
    return this.spool.recovery;
  }

  /** Set once spooled records of a version this build cannot store stopped the drain (until a restart). */
  get spoolRefusal(): SpoolVersionError | undefined {
    return this.drainer.refusal;
  }

  /** The V8 heaps of the ingest worker threads, bytes in memory (memory accounting: metrics). */
  get ingestWorkerHeapBytes(): number {
    return this.processor.workerHeapBytes;
  }

  /** Spans acknowledged but not yet in storage. */
  get backlogSpans(): number {
    return this.spool.pendingWeight;
  }

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
    return this.drainer.caughtUp(timeoutMs, this.intake.appendedUpToOf(projectId) ?? this.recoveredUpTo);
  }

  /** Resolves once every acknowledged span is in storage. */
  drained(timeoutMs?: number): Promise<void> {
    return this.drainer.drained(timeoutMs);
  }

  /**
   * Stops its gRPC receivers (calls under way get their grace), stops
   * taking work, then drains what it can within `drainTimeoutMs` (what is
   * left stays in the spool for the next start) and closes the spool. The
   * host stops routing to `httpHandler()` first.
   */
  async close(drainTimeoutMs = 10_000): Promise<void> {
    await Promise.all(this.grpcServers.map((s) => s.close()));
    await this.processor.close();
    await this.drainer.drained(drainTimeoutMs).catch(() => undefined);
    await this.drainer.stop();
    await this.spool.close();
  }
}
