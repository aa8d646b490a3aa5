import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

export interface LagReport {
  /** The window the figures cover (it restarts every `windowMs`). */
  windowSeconds: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** Event-loop delay over a rolling window (perf_hooks.monitorEventLoopDelay), for `/healthz`. */
export class EventLoopLag {
  private readonly histogram: IntervalHistogram;
  private readonly timer: NodeJS.Timeout;
  private windowStart = performance.now();
  private last: LagReport | undefined;

  constructor(windowMs = 10_000) {
    this.histogram = monitorEventLoopDelay({ resolution: 10 });
    this.histogram.enable();
    this.timer = setInterval(() => {
      this.last = this.read();
      this.histogram.reset();
      this.windowStart = performance.now();
    }, windowMs);
    this.timer.unref();
  }

  /** The figures of the window under way, or the last whole one when it has too few samples yet. */
  report(): LagReport {
    const current = this.read();
    return this.histogram.count < 10 && this.last !== undefined ? this.last : current;
  }

  stop(): void {
    clearInterval(this.timer);
    this.histogram.disable();
  }

  private read(): LagReport {
    const ms = (ns: number): number =>
      Number.isFinite(ns) && this.histogram.count > 0 ? Math.round(ns / 1e4) / 100 : 0;
    return {
      windowSeconds: Math.round((performance.now() - this.windowStart) / 100) / 10,
      p50Ms: ms(this.histogram.percentile(50)),
      p99Ms: ms(this.histogram.percentile(99)),
      maxMs: ms(this.histogram.max),
    };
  }
}
