import { readdirSync, readFileSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';

/**
 * The names (`/proc/<pid>/task/<tid>/comm`) of the embedded engine's threads
 * that do its background and parallel work: merges (`MergeMutate`) and the
 * parallel steps of inserts and queries (`ThreadPool`). Node's own threads
 * keep the process's name: the main thread, the ingest and spool workers,
 * V8's helpers, and the libuv threads an insert or a query starts on (the
 * engine names them `Unknown` only while it runs there; they also serve
 * Node's file and zlib work, so they are left alone).
 */
export const ENGINE_THREAD_NAMES: ReadonlySet<string> = new Set(['MergeMutate', 'ThreadPool']);

/** New engine threads (pools grow under load) are found within this. */
const SWEEP_MS = 2_000;

export interface EngineThreadPriorityOptions {
  /** Steps of niceness engine threads get above the process's main thread (1–19; more yields more; capped at 19). */
  nice: number;
  names?: ReadonlySet<string>;
  /** Where the process's threads are listed (default `/proc/self/task`). */
  taskDir?: string;
  /** Once, when threads cannot be listed or lowered (not Linux, no /proc): the process runs on unchanged. */
  onUnavailable?: (err: Error) => void;
}

/**
 * Lowers the CPU priority of the embedded engine's threads, so that under
 * load the collector's threads (reading, decoding and acknowledging
 * requests) win the cores and the engine's inserts and merges take the rest.
 * Linux only: a thread's niceness is set through its thread id; raising it
 * needs no privilege, and it cannot be lowered again without one, so the
 * choice holds for the life of the process.
 */
export class EngineThreadPriority {
  private readonly names: ReadonlySet<string>;
  private readonly taskDir: string;
  /** The niceness engine threads get. */
  readonly target: number;
  private timer: NodeJS.Timeout | undefined;
  private unavailable = false;
  /** Threads lowered so far. */
  lowered = 0;

  constructor(private readonly opts: EngineThreadPriorityOptions) {
    if (!Number.isInteger(opts.nice) || opts.nice < 1 || opts.nice > 19)
      throw new TelltaleError({
        code: TelltaleErrorCode.INVALID_CONFIG,
        message: `engine thread niceness must be an integer from 1 to 19, got ${opts.nice}`,
      });
    this.names = opts.names ?? ENGINE_THREAD_NAMES;
    this.taskDir = opts.taskDir ?? '/proc/self/task';
    this.target = Math.min(19, getPriority(process.pid) + opts.nice);
  }

  /** Sweeps now and then every 2 s (the timer does not keep the process alive). */
  start(): void {
    this.sweep();
    this.timer ??= setInterval(() => this.sweep(), SWEEP_MS).unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Lowers every engine thread that runs below the target niceness now; returns how many it lowered. */
  sweep(): number {
    if (this.unavailable) return 0;
    let tids: string[];
    try {
      tids = readdirSync(this.taskDir);
    } catch (err) {
      this.giveUp(err as Error);
      return 0;
    }
    let lowered = 0;
    for (const tid of tids) {
      try {
        if (!this.names.has(readFileSync(`${this.taskDir}/${tid}/comm`, 'latin1').trimEnd())) continue;
        const id = Number(tid);
        if (getPriority(id) >= this.target) continue;
        setPriority(id, this.target);
        lowered++;
      } catch (err) {
        // a thread that ended since the listing is gone; anything else means lowering does not work here
        if (threadGone(err)) continue;
        this.giveUp(err as Error);
        return lowered;
      }
    }
    this.lowered += lowered;
    return lowered;
  }

  private giveUp(err: Error): void {
    this.unavailable = true;
    this.stop();
    this.opts.onUnavailable?.(err);
  }
}

/** A thread listed a moment ago has ended: its files are gone (ENOENT) or its id is (ESRCH, a system error from os). */
function threadGone(err: unknown): boolean {
  const e = err as NodeJS.ErrnoException & { info?: { code?: string } };
  return e.code === 'ENOENT' || e.code === 'ESRCH' || e.info?.code === 'ESRCH';
}
