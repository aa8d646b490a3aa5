import type { SpanRecord } from '@telltale/store';

/** Where batches go: the store's insert, or anything with its shape. */
export type InsertBatch = (spans: readonly SpanRecord[]) => Promise<void>;

export interface SpanWriterOptions {
  insert: InsertBatch;
  /** Flush as soon as this many spans are waiting (one ClickHouse part per flush). */
  maxBatchSpans?: number;
  /** Flush at most this long after the first waiting span. */
  maxDelayMs?: number;
}

interface Waiter {
  spans: readonly SpanRecord[];
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit: concurrent requests' spans are inserted together as one
 * batch, and each `write` resolves only once its spans are in ClickHouse (so
 * a request is acknowledged only for data that is kept). One insert runs at a
 * time; writes arriving meanwhile form the next batch.
 */
export class SpanWriter {
  private readonly insert: InsertBatch;
  private readonly maxBatchSpans: number;
  private readonly maxDelayMs: number;
  private waiting: Waiter[] = [];
  private waitingSpans = 0;
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;
  private closed = false;

  constructor(opts: SpanWriterOptions) {
    this.insert = opts.insert;
    this.maxBatchSpans = opts.maxBatchSpans ?? 10_000;
    this.maxDelayMs = opts.maxDelayMs ?? 50;
  }

  /** Resolves when the spans are stored; rejects with the storage error otherwise. */
  write(spans: readonly SpanRecord[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error('span writer is closed'));
    if (spans.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ spans, resolve, reject });
      this.waitingSpans += spans.length;
      if (this.waitingSpans >= this.maxBatchSpans) this.kick();
      else this.timer ??= setTimeout(() => this.kick(), this.maxDelayMs);
    });
  }

  /** Writes everything accepted so far. */
  async flush(): Promise<void> {
    while (this.waiting.length > 0 || this.inFlight !== undefined) {
      this.kick();
      await this.inFlight;
    }
  }

  /** Flushes, then refuses further writes. */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
  }

  private kick(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.inFlight !== undefined || this.waiting.length === 0) return;
    const batch = this.waiting;
    this.waiting = [];
    this.waitingSpans = 0;
    this.inFlight = this.commit(batch).finally(() => {
      this.inFlight = undefined;
      if (this.waitingSpans >= this.maxBatchSpans) this.kick();
      else if (this.waiting.length > 0) this.timer ??= setTimeout(() => this.kick(), this.maxDelayMs);
    });
  }

  private async commit(batch: Waiter[]): Promise<void> {
    const spans = batch.length === 1 ? batch[0]!.spans : batch.flatMap((w) => w.spans);
    try {
      for (let i = 0; i < spans.length; i += this.maxBatchSpans) await this.insert(spans.slice(i, i + this.maxBatchSpans));
      for (const w of batch) w.resolve();
    } catch (err) {
      for (const w of batch) w.reject(err);
    }
  }
}
