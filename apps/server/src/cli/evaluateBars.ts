import { formatDurationNs, formatPercent } from './formatValue.js';

/** The bars of `telltale check`; absent = not checked. */
export interface Bars {
  /** Observed end-to-end success rate at least this (0–1). */
  minSuccess?: number;
  /** Run-duration p99 at most this, in nanoseconds. */
  maxP99Ns?: number;
  /** Share of runs with a loop detection at most this (0–1). */
  maxLoopRate?: number;
}

/** What the server measured for one agent in the window; null = no data. */
export interface AgentMeasurement {
  agent: string;
  service: string;
  /** Runs that ended (success + failure). */
  completedRuns: number;
  successRate: number | null;
  p99Ns: number | null;
  loopRate: number | null;
}

export type BarName = 'min-success' | 'max-p99' | 'max-loop-rate';

export interface BarResult {
  agent: string;
  service: string;
  bar: BarName;
  passed: boolean;
  measured: number | null;
  threshold: number;
  /** One line a person reads: what was measured against which bar. */
  message: string;
}

const BAR_CHECKS: ReadonlyArray<{
  bar: BarName;
  threshold: (b: Bars) => number | undefined;
  measured: (m: AgentMeasurement) => number | null;
  passes: (measured: number, threshold: number) => boolean;
  format: (x: number) => string;
  relation: string;
}> = [
  {
    bar: 'min-success',
    threshold: (b) => b.minSuccess,
    measured: (m) => m.successRate,
    passes: (v, t) => v >= t,
    format: (x) => formatPercent(x, 2),
    relation: '≥',
  },
  {
    bar: 'max-p99',
    threshold: (b) => b.maxP99Ns,
    measured: (m) => m.p99Ns,
    passes: (v, t) => v <= t,
    format: formatDurationNs,
    relation: '≤',
  },
  {
    bar: 'max-loop-rate',
    threshold: (b) => b.maxLoopRate,
    measured: (m) => m.loopRate,
    passes: (v, t) => v <= t,
    format: (x) => formatPercent(x, 2),
    relation: '≤',
  },
];

/**
 * Every asked-for bar for every agent. An agent with no completed runs, or
 * a metric with no value, misses the bar: a gate must not pass on no data.
 */
export function evaluateBars(measurements: readonly AgentMeasurement[], bars: Bars): BarResult[] {
  const results: BarResult[] = [];
  for (const m of measurements) {
    for (const check of BAR_CHECKS) {
      const threshold = check.threshold(bars);
      if (threshold === undefined) continue;
      const measured = m.completedRuns === 0 ? null : check.measured(m);
      const passed = measured !== null && check.passes(measured, threshold);
      const shown = measured === null ? 'no data' : check.format(measured);
      results.push({
        agent: m.agent,
        service: m.service,
        bar: check.bar,
        passed,
        measured,
        threshold,
        message: `${passed ? 'ok  ' : 'FAIL'} ${m.agent} (${m.service}) ${check.bar}: ${shown} ${passed ? check.relation : `not ${check.relation}`} ${check.format(threshold)} (${m.completedRuns} runs)`,
      });
    }
  }
  return results;
}
