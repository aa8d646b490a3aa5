export interface RepeatingTaskOptions {
  /** One round. A rejection goes to `onError`; the task goes on. */
  run: () => Promise<unknown>;
  /** The pause between the end of one round and the start of the next. */
  everyMs: number;
  onError?: (err: unknown) => void;
}

/**
 * A background loop for the server's workers: runs `run`, waits `everyMs`
 * after it ends, runs it again, never two rounds at once. `stop` ends the
 * loop and waits for the round in flight.
 */
export class RepeatingTask {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;

  constructor(private readonly opts: RepeatingTaskOptions) {}

  /** Starts the loop, its first round in `firstInMs`. */
  start(firstInMs = 0): void {
    this.stopped = false;
    this.schedule(firstInMs);
  }

  /** Runs a round now, or right after the one in flight. */
  wake(): void {
    if (this.stopped) return;
    if (this.running !== undefined) this.again = true;
    else this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.opts
        .run()
        .then(
          () => undefined,
          (err: unknown) => this.opts.onError?.(err),
        )
        .finally(() => {
          this.running = undefined;
          const soon = this.again;
          this.again = false;
          this.schedule(soon ? 0 : this.opts.everyMs);
        });
    }, delayMs);
  }
}
