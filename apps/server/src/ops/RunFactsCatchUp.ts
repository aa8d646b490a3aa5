/** The run facts' catch-up (RunFacts.catchUp). */
export interface CatchesUp {
  catchUp(opts: { onProgress?: (done: number, total: number) => void }): Promise<number>;
}

/** Where the run facts catch-up after start stands (readiness and metrics read it). */
export interface CatchUpState {
  state: 'catching_up' | 'caught_up';
  done: number;
  total: number;
  /** The last failure, while it is retried. */
  lastError?: string;
}

export interface RunFactsCatchUpOptions {
  /** Hears (done, total) as chunks are finalised (a progress reporter). */
  onProgress?: (done: number, total: number) => void;
  /** The catch-up ended: caught up, or stopped. */
  onFinished?: (state: CatchUpState) => void;
  onError?: (err: unknown) => void;
  /** First retry delay after a failure; doubles up to 60 s (default 2 s). */
  retryDelayMs?: number;
}

/**
 * Catches the run facts up after start in the background — the server
 * listens meanwhile, and a query still finalises its project's stale runs
 * first (RunFacts.beforeRead) — retrying with backoff while storage fails.
 */
export class RunFactsCatchUp {
  private current: CatchUpState = { state: 'catching_up', done: 0, total: 0 };
  private stopped = false;
  private wake: (() => void) | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly runFacts: CatchesUp,
    private readonly opts: RunFactsCatchUpOptions = {},
  ) {}

  get state(): CatchUpState {
    return this.current;
  }

  start(): void {
    this.running ??= this.run();
  }

  /** A process that does not catch up (split roles: the alert worker does it) is caught up for readiness. */
  skip(): void {
    this.current = { state: 'caught_up', done: 0, total: 0 };
  }

  /** Stops retrying; a catch-up under way ends after its chunk once the store stops (RunFacts.stop). */
  stop(): void {
    this.stopped = true;
    this.wake?.();
  }

  private async run(): Promise<void> {
    let delay = this.opts.retryDelayMs ?? 2_000;
    while (!this.stopped) {
      try {
        await this.runFacts.catchUp({
          onProgress: (done, total) => {
            this.current = { state: 'catching_up', done, total };
            this.opts.onProgress?.(done, total);
          },
        });
        if (!this.stopped) this.current = { state: 'caught_up', done: this.current.total, total: this.current.total };
        break;
      } catch (err) {
        this.current = { ...this.current, lastError: err instanceof Error ? err.message : String(err) };
        this.opts.onError?.(err);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, delay);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        delay = Math.min(delay * 2, 60_000);
      }
    }
    this.opts.onFinished?.(this.current);
  }
}
