import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { movableBuffers } from '../ingest/movableBuffers.js';
import type { SpoolIoReply, SpoolIoRequest } from './spoolIoProtocol.js';

/** The compiled worker, beside this file in dist (under vitest, this file runs from src). */
function workerUrl(): URL {
  const beside = new URL('./spoolIoWorker.js', import.meta.url);
  if (existsSync(fileURLToPath(beside))) return beside;
  return new URL('../../dist/spool/spoolIoWorker.js', import.meta.url);
}

type Request = SpoolIoRequest extends infer R ? (R extends SpoolIoRequest ? Omit<R, 'id'> : never) : never;

/**
 * A thread of its own for the spool's file writes and fsyncs. Node's
 * asynchronous file calls share libuv's small thread pool with the embedded
 * storage engine, whose queries hold a pool thread each for their whole
 * run: with the pool taken, a spool write would wait seconds behind them,
 * and every acknowledgement with it. Calls are answered in order.
 */
export class SpoolIoThread {
  private readonly worker: Worker;
  private readonly pending = new Map<
    number,
    { resolve: (fd: number | undefined) => void; reject: (err: Error) => void }
  >();
  private nextId = 1;
  private failure: Error | undefined;
  private readonly up: Promise<void>;

  constructor() {
    this.worker = new Worker(workerUrl(), { execArgv: [] });
    let ready = (): void => undefined;
    let notReady = (_err: Error): void => undefined;
    this.up = new Promise((resolve, reject) => {
      ready = resolve;
      notReady = reject;
    });
    this.worker.on('message', (reply: SpoolIoReply) => {
      if ('ready' in reply) {
        if (this.pending.size === 0) this.worker.unref(); // ref'd while loading, so the wait for it holds the process
        return ready();
      }
      const call = this.pending.get(reply.id);
      if (call === undefined) return;
      this.pending.delete(reply.id);
      if (reply.ok) call.resolve(reply.fd);
      else call.reject(Object.assign(new Error(reply.message), { code: reply.code }));
    });
    const fail = (err: Error): void => {
      this.failure ??= err;
      notReady(err);
      for (const call of this.pending.values()) call.reject(err);
      this.pending.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`spool writing thread exited with code ${code}`)));
  }

  /**
   * Resolves once the thread has loaded and can take calls. Loading reads
   * files through the shared pool: wait for it before the engine's queries
   * may hold every pool thread.
   */
  ready(): Promise<void> {
    return this.up;
  }

  /** Creates `path` (it must not exist) and makes its entry in `dir` durable; resolves with its descriptor. */
  async create(path: string, dir: string): Promise<number> {
    return (await this.call({ op: 'create', path, dir }))!;
  }

  /**
   * Writes every byte of `parts` at `position`, then fdatasyncs: resolves
   * once they are durable. A part that is the whole of its buffer (a
   * worker's output, not a slice of Node's shared pool) has the buffer
   * moved to the writing thread, not copied: the caller must not use it
   * after. Copying a request's spool record (about 1.1 KB per span) cost
   * the main thread a clone of it, and the writing thread another.
   */
  async writeDurably(fd: number, parts: readonly Uint8Array[], position: number): Promise<void> {
    await this.call({ op: 'write', fd, parts: [...parts], position }, movableBuffers(parts));
  }

  async truncate(fd: number, length: number): Promise<void> {
    await this.call({ op: 'truncate', fd, length });
  }

  async closeFile(fd: number): Promise<void> {
    await this.call({ op: 'close', fd });
  }

  /** Ends the thread (after the caller's last call has been answered). */
  async stop(): Promise<void> {
    this.failure ??= new Error('spool writing thread stopped');
    await this.worker.terminate();
  }

  private call(req: Request, transfer: ArrayBuffer[] = []): Promise<number | undefined> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // keep the process alive while a write is under way, as a file call would
      this.worker.ref();
      this.worker.postMessage({ ...req, id }, transfer);
    }).finally(() => {
      if (this.pending.size === 0) this.worker.unref();
    }) as Promise<number | undefined>;
  }
}
