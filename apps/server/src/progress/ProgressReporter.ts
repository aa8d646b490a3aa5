/** Where a terminal progress line is drawn (process.stderr when it is a TTY). */
export interface ProgressTerminal {
  write(text: string): unknown;
}

export interface ProgressReporterOptions {
  /** What is being done, e.g. `run facts catch-up`. */
  label: string;
  /** What is counted, e.g. `runs`. */
  unit: string;
  /** Given: a redrawn line on it. Absent: log lines through `log`. */
  terminal?: ProgressTerminal | undefined;
  /** A log line (the server's pino logger: `logger.info(fields, message)`). */
  log: (fields: Record<string, unknown>, message: string) => void;
  /** Between log lines (default 5 s); the last one is always written. */
  logEveryMs?: number;
  /** Between redraws of the terminal line (default 200 ms). */
  redrawEveryMs?: number;
  /** Milliseconds now (default performance.now; tests pass their own). */
  clock?: () => number;
}

/** One reading of a long piece of work. */
export interface ProgressSnapshot {
  done: number;
  total: number;
  elapsedMs: number;
  /** Units per second since the start; undefined before anything was done. */
  ratePerSecond: number | undefined;
  /** Milliseconds left at that rate; undefined while the rate is unknown. */
  etaMs: number | undefined;
}

/**
 * Shows the progress of long work — done / total, rate, time left — as a
 * redrawn line on a terminal, or otherwise as a log line every few seconds
 * and one at the end.
 */
export class ProgressReporter {
  private readonly clock: () => number;
  private readonly startedAt: number;
  private done = 0;
  private total = 0;
  private lastLogAt: number | undefined;
  private lastDrawAt: number | undefined;
  private finished = false;

  constructor(private readonly opts: ProgressReporterOptions) {
    this.clock = opts.clock ?? (() => performance.now());
    this.startedAt = this.clock();
  }

  /** Records progress; draws or logs when it is time to. */
  update(done: number, total: number): void {
    if (this.finished) return;
    this.done = done;
    this.total = total;
    const now = this.clock();
    if (this.opts.terminal !== undefined) {
      if (this.lastDrawAt === undefined || now - this.lastDrawAt >= (this.opts.redrawEveryMs ?? 200) || done >= total) {
        this.lastDrawAt = now;
        this.opts.terminal.write(`\r${this.line()}\u001b[K`);
      }
      return;
    }
    if (this.lastLogAt === undefined || now - this.lastLogAt >= (this.opts.logEveryMs ?? 5_000)) {
      this.lastLogAt = now;
      this.log(false);
    }
  }

  /** The work ended (done or given up): the last line. */
  finish(): void {
    if (this.finished) return;
    this.finished = true;
    if (this.opts.terminal !== undefined) this.opts.terminal.write(`\r${this.line()}\u001b[K\n`);
    else this.log(true);
  }

  snapshot(): ProgressSnapshot {
    const elapsedMs = this.clock() - this.startedAt;
    const ratePerSecond = this.done > 0 && elapsedMs > 0 ? (this.done / elapsedMs) * 1000 : undefined;
    const etaMs =
      ratePerSecond === undefined ? undefined : (Math.max(0, this.total - this.done) / ratePerSecond) * 1000;
    return { done: this.done, total: this.total, elapsedMs, ratePerSecond, etaMs };
  }

  /** `label: done/total unit (pct), rate unit/s, time left` */
  line(): string {
    const s = this.snapshot();
    const pct = s.total > 0 ? ` (${Math.floor((s.done / s.total) * 100)}%)` : '';
    const rate = s.ratePerSecond === undefined ? '' : `, ${formatCount(s.ratePerSecond)} ${this.opts.unit}/s`;
    const tail =
      s.done >= s.total
        ? `, took ${formatDuration(s.elapsedMs)}`
        : s.etaMs === undefined
          ? ''
          : `, ${formatDuration(s.etaMs)} left`;
    return `${this.opts.label}: ${formatCount(s.done)}/${formatCount(s.total)} ${this.opts.unit}${pct}${rate}${tail}`;
  }

  private log(final: boolean): void {
    const s = this.snapshot();
    const fields: Record<string, unknown> = { done: s.done, total: s.total, elapsedMs: Math.round(s.elapsedMs) };
    if (s.ratePerSecond !== undefined) fields.ratePerSecond = Math.round(s.ratePerSecond * 10) / 10;
    if (!final && s.etaMs !== undefined) fields.etaMs = Math.round(s.etaMs);
    this.opts.log(fields, this.line());
  }
}

function formatCount(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** `850 ms`, `12 s`, `3m 05s`, `1h 02m` */
export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}
