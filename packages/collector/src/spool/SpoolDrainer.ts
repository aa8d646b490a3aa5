import type { Spool, SpoolBatch } from './Spool.js';
import { SpoolVersionError } from './SpoolVersionError.js';

/**
 * Stores one batch of spool payloads (read as it goes); must be idempotent
 * for a repeated `token`. With the drainer's `reusePayloads`, each payload
 * is valid only until the next is taken.
 */
export type StoreBatch = (payloads: AsyncIterable<Buffer>, token: string) => Promise<void>;

/**
 * Turns a payload of an older (or other) version into one of the spool's
 * version. What it returns goes to the store as the payload would, so with
 * `reusePayloads` both are valid only until the next payload is taken.
 */
export type SpoolRecordConverter = (payload: Buffer) => Buffer;

/**
 * Spans per insert while there is a backlog. Larger inserts cost less per
 * span, merges included: measured on chDB, 20k-span inserts cost 16 CPU-µs
 * per span once their merges were done, 60k-span inserts 8.
 */
export const DEFAULT_DRAIN_BATCH_SPANS = 64_000;

/** Spool bytes a batch may hold per span of its weight: 125 MiB for the default batch. */
export const DRAIN_BATCH_BYTES_PER_SPAN = 2048;

/** The stored rate `caughtUp` judges a backlog by: spans acknowledged over this window. */
const RATE_WINDOW_MS = 10_000;

export interface SpoolDrainerOptions {
  spool: Spool;
  store: StoreBatch;
  /** Largest batch in record weight (spans): one insert, one part (default DEFAULT_DRAIN_BATCH_SPANS). */
  maxBatchWeight?: number;
  /** Largest batch in bytes (default DRAIN_BATCH_BYTES_PER_SPAN per span of `maxBatchWeight`). */
  maxBatchBytes?: number;
  /** With less than a full batch waiting, wait this long for more before storing (default 200 ms). */
  lingerMs?: number;
  /** First retry delay after a failed store; doubles up to `maxRetryDelayMs` (defaults 250 ms, 5 s). */
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
  /** Each failed attempt (the batch stays in the spool and is retried). */
  onError?: (err: unknown, batch: SpoolBatch | undefined, attempt: number) => void;
  /** Each stored batch. */
  onStored?: (batch: SpoolBatch) => void;
  /** Between a batch's insert and its ack (fault tests crash the process here). */
  beforeAck?: (batch: SpoolBatch) => void;
  /**
   * The store finishes with each payload before it takes the next: the
   * batch's payloads are read into one buffer, reused record after record,
   * instead of a new one each (default false).
   */
  reusePayloads?: boolean;
  /** Converters to the spool's version, by the version they read (default: none). */
  converters?: ReadonlyMap<number, SpoolRecordConverter>;
  /** Called once when records of a version without a converter stop the drain. */
  onRefused?: (err: SpoolVersionError) => void;
}

/**
 * Moves spooled records into storage, oldest first, in large batches, one at
 * a time. A failed batch is retried with backoff for as long as it takes —
 * with the same token, so a retry of an insert that did land is deduplicated.
 * Nothing is dropped: while storage is down the spool fills, and the
 * collector answers 503 once it is full.
 */
export class SpoolDrainer {
  private readonly opts: Required<Omit<SpoolDrainerOptions, 'onError' | 'onStored' | 'beforeAck' | 'onRefused'>> &
    Pick<SpoolDrainerOptions, 'onError' | 'onStored' | 'beforeAck' | 'onRefused'>;
  private refused: SpoolVersionError | undefined;
  private running: Promise<void> | undefined;
  private stopping = false;
  private wakeSleep: (() => void) | undefined;
  private idleWaiters: ((refused?: SpoolVersionError) => void)[] = [];
  private progressWaiters: { target: number; done: (ok: boolean) => void }[] = [];
  /** Someone waits for the backlog: store what there is without lingering. */
  private hurry = false;
  /** Batches stored in the last RATE_WINDOW_MS: when, and their weight. */
  private readonly recent: { atMs: number; weight: number }[] = [];

  constructor(opts: SpoolDrainerOptions) {
    const maxBatchWeight = opts.maxBatchWeight ?? DEFAULT_DRAIN_BATCH_SPANS;
    this.opts = {
      maxBatchWeight,
      maxBatchBytes: maxBatchWeight * DRAIN_BATCH_BYTES_PER_SPAN,
      lingerMs: 200,
      reusePayloads: false,
      retryDelayMs: 250,
      maxRetryDelayMs: 5_000,
      converters: new Map(),
      ...opts,
    };
  }

  start(): void {
    this.stopping = false;
    this.running ??= this.loop().finally(() => {
      this.running = undefined;
    });
  }

  /**
   * Records of a version with no converter, met at the head of the spool: the
   * drain stopped there (they and what follows stay on disk) until a restart.
   */
  get refusal(): SpoolVersionError | undefined {
    return this.refused;
  }

  /** Resolves once everything spooled so far is stored (for tests and shutdown); rejects after `timeoutMs`, or at once while refused. */
  async drained(timeoutMs = 30_000): Promise<void> {
    if (this.opts.spool.pendingWeight === 0) return;
    if (this.refused !== undefined) throw this.refused;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(new Error(`spool not drained after ${timeoutMs} ms (${this.opts.spool.pendingWeight} spans waiting)`)),
        timeoutMs,
      );
      this.idleWaiters.push((refused) => {
        clearTimeout(timer);
        if (refused === undefined) resolve();
        else reject(refused);
      });
    });
  }

  /**
   * Resolves true once the spool is stored up to `target` — a point in its
   * cumulative weight (`ackedWeight + pendingWeight` when something was
   * appended); default: everything in it at the call — skipping the linger,
   * or false after `timeoutMs` (storage slow or down). A backlog ahead of
   * `target` larger than one batch, which the drainer would not store within
   * `timeoutMs` at the rate it stored the last 10 s (sustained overload, or
   * storage down), resolves false at once: waiting would only delay the
   * caller, who reads what is stored either way.
   */
  caughtUp(timeoutMs: number, target?: number): Promise<boolean> {
    const { spool } = this.opts;
    target ??= spool.ackedWeight + spool.pendingWeight;
    const ahead = target - spool.ackedWeight;
    if (ahead <= 0) return Promise.resolve(true);
    if (this.refused !== undefined) return Promise.resolve(false); // nothing will be stored before a restart
    if (ahead > this.opts.maxBatchWeight && ahead > this.storedPerMs() * timeoutMs) return Promise.resolve(false);
    this.hurry = true;
    this.wakeSleep?.();
    return this.storedUpTo(target, timeoutMs);
  }

  /**
   * Resolves once at most `maxWeight` spans wait in the spool (stored up to
   * where the backlog was at the call, less `maxWeight`), or after
   * `timeoutMs`, or at once while refused. It paces producers under
   * sustained overload: they wait for storage instead of filling the spool.
   */
  backlogAtMost(maxWeight: number, timeoutMs: number): Promise<void> {
    const { spool } = this.opts;
    const over = spool.pendingWeight - maxWeight;
    if (over <= 0 || this.refused !== undefined) return Promise.resolve();
    return this.storedUpTo(spool.ackedWeight + over, timeoutMs).then(() => undefined);
  }

  /** True once the spool is stored up to `target`, false after `timeoutMs`. */
  private storedUpTo(target: number, timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const waiter = {
        target,
        done: (ok: boolean): void => {
          clearTimeout(timer);
          this.progressWaiters = this.progressWaiters.filter((w) => w !== waiter);
          resolve(ok);
        },
      };
      const timer = setTimeout(() => waiter.done(false), timeoutMs);
      this.progressWaiters.push(waiter);
    });
  }

  /** Stops after the batch in flight; what is left stays in the spool for the next start. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wakeSleep?.();
    await this.running;
  }

  private async loop(): Promise<void> {
    const { spool, store, maxBatchWeight, maxBatchBytes, lingerMs } = this.opts;
    let delay = this.opts.retryDelayMs;
    let attempt = 0;
    while (!this.stopping) {
      for (const w of this.progressWaiters) if (spool.ackedWeight >= w.target) w.done(true);
      if (spool.pendingWeight === 0) {
        this.hurry = false;
        for (const wake of this.idleWaiters.splice(0)) wake();
      }
      if (spool.pendingWeight === 0) {
        await Promise.race([spool.waitForData(1_000), this.sleep(1_000)]);
        continue;
      }
      // a small backlog waits a little for company: fewer, larger parts
      if (spool.pendingWeight < maxBatchWeight && attempt === 0 && !this.hurry) await this.sleep(lingerMs);
      let batch: SpoolBatch | undefined;
      try {
        batch = await spool.nextBatch({ maxWeight: maxBatchWeight, maxBytes: maxBatchBytes });
        if (batch === undefined) {
          await this.sleep(lingerMs);
          continue;
        }
        if (batch.version !== spool.version) {
          const convert = this.opts.converters.get(batch.version);
          if (convert === undefined) {
            this.refuse(
              new SpoolVersionError(batch.version, spool.version, spool.dir, spool.segmentFilesWith(batch.version)),
            );
            break;
          }
          await store(converted(batch.payloads({ reuse: this.opts.reusePayloads }), convert), batch.token);
        } else {
          await store(batch.payloads({ reuse: this.opts.reusePayloads }), batch.token);
        }
        this.opts.beforeAck?.(batch);
        await spool.ack(batch);
        this.noteStored(batch.weight);
        this.opts.onStored?.(batch);
        delay = this.opts.retryDelayMs;
        attempt = 0;
      } catch (err) {
        attempt++;
        this.opts.onError?.(err, batch, attempt);
        await this.sleep(delay);
        delay = Math.min(delay * 2, this.opts.maxRetryDelayMs);
      }
    }
  }

  /** Stops draining, keeping the batch and everything after it on disk; waiters give up at once. */
  private refuse(err: SpoolVersionError): void {
    this.refused = err;
    for (const w of [...this.progressWaiters]) w.done(false);
    for (const wake of this.idleWaiters.splice(0)) wake(err);
    this.opts.onRefused?.(err);
  }

  private noteStored(weight: number): void {
    const now = Date.now();
    this.recent.push({ atMs: now, weight });
    while (this.recent.length > 0 && this.recent[0]!.atMs < now - RATE_WINDOW_MS) this.recent.shift();
  }

  /** Spans stored per ms over the last RATE_WINDOW_MS. */
  private storedPerMs(): number {
    const since = Date.now() - RATE_WINDOW_MS;
    let weight = 0;
    for (const r of this.recent) if (r.atMs >= since) weight += r.weight;
    return weight / RATE_WINDOW_MS;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        if (this.wakeSleep === done) this.wakeSleep = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeSleep = done;
    });
  }
}

async function* converted(payloads: AsyncIterable<Buffer>, convert: SpoolRecordConverter): AsyncGenerator<Buffer> {
  for await (const payload of payloads) yield convert(payload);
}
