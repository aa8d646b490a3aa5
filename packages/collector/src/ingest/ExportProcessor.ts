import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';
import type { SpanLimits } from '../normalise/spanLimits.js';
import { jobFacts } from './jobFacts.js';
import { movableBuffers } from './movableBuffers.js';
import { processExport, type ExportJob, type ProcessedExport } from './processExport.js';
import type { WorkerFacts, WorkerReply } from './workerProtocol.js';

export interface ExportProcessorOptions {
  /** Worker threads; 0 processes inline on the calling thread (default: cores − 1, 1 to 4). */
  workers?: number;
  limits?: SpanLimits;
  /** Jobs a worker holds at once, so it never idles between messages (default 2). */
  perWorkerInFlight?: number;
  /** Hears the run facts of each job with a `factsKey`, after its result (none: `runs` empty). */
  onFacts?: (facts: WorkerFacts) => void;
}

/** Where a job's time went in the processor, ms. */
export interface ProcessTiming {
  /** Queued, behind another job in the worker, and the messages to and fro. */
  waitMs: number;
  /** On the worker (or inline). */
  processMs: number;
}

interface Job {
  id: number;
  job: ExportJob;
  queuedAt: number;
  timing: ProcessTiming | undefined;
  resolve: (r: ProcessedExport) => void;
  reject: (err: unknown) => void;
}

interface Slot {
  worker: Worker;
  inFlight: Map<number, Job>;
  /** The worker's V8 heap in memory as of its latest reply. */
  heapBytes: number;
}

/**
 * One core is left to the event loop and the storage engine's insert: on 2
 * cores, 1 worker sustained 48k spans/s against 40k with 2 (bench/README.md).
 */
export function defaultWorkers(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}

/** The compiled worker, beside this file in dist (under vitest, this file runs from src). */
function workerUrl(): URL {
  const beside = new URL('./ingestWorker.js', import.meta.url);
  if (existsSync(fileURLToPath(beside))) return beside;
  return new URL('../../dist/ingest/ingestWorker.js', import.meta.url);
}

/**
 * Runs `processExport` on a pool of worker threads, so decoding never blocks
 * the event loop that accepts requests and writes the spool, and both cores
 * decode. Bodies are transferred, not copied. A worker that dies is replaced
 * and its jobs fail with a 500 (the client retries; nothing was acknowledged).
 */
export class ExportProcessor {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private readonly limits: SpanLimits | undefined;
  private readonly perWorker: number;
  private nextId = 1;
  private closed = false;
  private readonly onFacts: (facts: WorkerFacts) => void;

  constructor(opts: ExportProcessorOptions = {}) {
    this.limits = opts.limits;
    this.perWorker = opts.perWorkerInFlight ?? 2;
    this.onFacts = opts.onFacts ?? (() => undefined);
    for (let i = 0; i < (opts.workers ?? defaultWorkers()); i++) this.slots.push(this.spawn());
  }

  /** Processes one job; `timing`, when given, is filled in with where its time went. */
  process(job: ExportJob, timing?: ProcessTiming): Promise<ProcessedExport> {
    if (this.closed)
      return Promise.reject(
        new TelltaleError({ code: TelltaleErrorCode.UNAVAILABLE, message: 'collector is shutting down' }),
      );
    if (this.slots.length === 0) {
      try {
        const started = performance.now();
        const result = processExport(job, this.limits);
        if (timing !== undefined) timing.processMs = performance.now() - started;
        const key = job.factsKey;
        // a copy: the spool takes the parts (Spool.append), and the facts are computed later
        const last = result.parts.at(-1);
        const spans = key === undefined || last === undefined ? undefined : Uint8Array.prototype.slice.call(last);
        if (key !== undefined) setImmediate(() => this.onFacts(jobFacts(key, job.projectId, spans)));
        return Promise.resolve(result);
      } catch (err) {
        if (job.factsKey !== undefined) this.onFacts(jobFacts(job.factsKey, job.projectId, undefined));
        return Promise.reject(err instanceof Error ? err : new Error(String(err)));
      }
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, job, queuedAt: performance.now(), timing, resolve, reject });
      this.dispatch();
    });
  }

  /** The V8 heaps of the worker threads, bytes in memory (as of each worker's latest reply). */
  get workerHeapBytes(): number {
    return this.slots.reduce((n, s) => n + s.heapBytes, 0);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let best: Slot | undefined;
      for (const s of this.slots)
        if (s.inFlight.size < this.perWorker && (best === undefined || s.inFlight.size < best.inFlight.size)) best = s;
      if (best === undefined) return;
      const job = this.queue.shift()!;
      best.inFlight.set(job.id, job);
      const body = job.job.body;
      // the body's buffers move to the worker: a socket's reads are each a buffer of their own
      best.worker.postMessage({ id: job.id, job: job.job }, movableBuffers(Array.isArray(body) ? body : [body]));
    }
  }

  private spawn(): Slot {
    // plain node flags: the worker is compiled JS, whatever conditions the host runs under (vitest resolves `source`)
    const worker = new Worker(workerUrl(), { workerData: { limits: this.limits }, execArgv: [] });
    const slot: Slot = { worker, inFlight: new Map(), heapBytes: 0 };
    worker.on('message', (message: WorkerReply | { facts: WorkerFacts }) => {
      if ('facts' in message) {
        this.onFacts(message.facts);
        return;
      }
      const reply = message;
      const job = slot.inFlight.get(reply.id);
      if (job === undefined) return;
      slot.inFlight.delete(reply.id);
      if (job.timing !== undefined && reply.ok) {
        job.timing.processMs = reply.ms;
        job.timing.waitMs = Math.max(0, performance.now() - job.queuedAt - reply.ms);
      }
      if (reply.ok) slot.heapBytes = reply.heapBytes;
      if (reply.ok) job.resolve(reply.result);
      else job.reject(new TelltaleError({ code: reply.code, message: reply.message }));
      this.dispatch();
    });
    worker.on('error', (err) => this.replace(slot, err));
    worker.on('exit', (code) => {
      if (!this.closed) this.replace(slot, new Error(`ingest worker exited with code ${code}`));
    });
    worker.unref();
    return slot;
  }

  private replace(slot: Slot, err: unknown): void {
    const i = this.slots.indexOf(slot);
    if (i < 0) return;
    for (const job of slot.inFlight.values())
      job.reject(new TelltaleError({ code: TelltaleErrorCode.INTERNAL, message: 'ingest worker failed', cause: err }));
    slot.inFlight.clear();
    void slot.worker.terminate();
    if (this.closed) {
      this.slots.splice(i, 1);
      return;
    }
    this.slots[i] = this.spawn();
    this.dispatch();
  }
}
