/**
 * Runs async tasks one at a time, in arrival order, with a bound on how many
 * may wait. chDB runs one query at a time per session anyway; queueing here
 * keeps each request's session state (its settings and parameters) from
 * mixing with another's.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private waiting = 0;

  constructor(readonly maxWaiting: number) {}

  /** Tasks queued or running. */
  get size(): number {
    return this.waiting;
  }

  get full(): boolean {
    return this.waiting >= this.maxWaiting;
  }

  run<T>(task: () => Promise<T>): Promise<T> {
    this.waiting++;
    const result = this.tail.then(task);
    const settled = result.then(
      () => undefined,
      () => undefined,
    );
    this.tail = settled;
    void settled.then(() => this.waiting--);
    return result;
  }

  /** Resolves once everything queued so far has finished. */
  async idle(): Promise<void> {
    while (this.waiting > 0) await this.tail;
  }
}
