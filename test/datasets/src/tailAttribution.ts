import type { SpanRecord } from '@telltale/store';
import { exactPercentiles } from './exactPercentile.js';
import { selfTimeNs } from './selfTimeNs.js';

export interface TailShare {
  /** Step name; '' (with isStep false) for time in the run root and in spans that are not steps. */
  stepName: string;
  isStep: boolean;
  tailShare: number;
  medianShare: number;
  growth: number;
}

export interface TailAttribution {
  tailThresholdNs: number;
  tailRuns: number;
  medianRuns: number;
  /** Sorted by growth, largest first. */
  shares: TailShare[];
  /** The step whose share grows most (time outside steps never drives; '' when there are no runs). */
  driver: string;
}

/**
 * Reference tail attribution (RELIABILITY-MATH "Latency"): runs (with a root)
 * whose duration is ≥ the exact `tailQuantile` of run durations form the
 * tail; runs between the `medianBand` percentiles (default p45–p55, both
 * inclusive, nearest-rank as {@link exactPercentiles}) stand for the median. A step's share in a group is the sum of its spans' self time
 * over the sum of the runs' durations.
 */
export function tailAttribution(
  spans: readonly SpanRecord[],
  opts: { tailQuantile?: number; medianBand?: readonly [number, number] } = {},
): TailAttribution {
  const self = selfTimeNs(spans);
  const roots = new Map<string, number>();
  for (const s of spans) if (s.isRunRoot) roots.set(s.runId, Number(s.endTimeUnixNano - s.startTimeUnixNano));
  const durations = [...roots.values()];
  const [lo, hi] = opts.medianBand ?? [0.45, 0.55];
  const [tail, bandLo, bandHi] = exactPercentiles(durations, [opts.tailQuantile ?? 0.99, lo, hi]) as [
    number,
    number,
    number,
  ];
  const group = new Map<string, 'tail' | 'median'>();
  let tailTotal = 0;
  let medianTotal = 0;
  for (const [runId, d] of roots) {
    if (d >= tail) {
      group.set(runId, 'tail');
      tailTotal += d;
    } else if (d >= bandLo && d <= bandHi) {
      group.set(runId, 'median');
      medianTotal += d;
    }
  }
  const sums = new Map<string, { tail: number; median: number }>();
  for (const s of spans) {
    const g = group.get(s.runId);
    if (g === undefined) continue;
    const name = s.isRunRoot || s.stepKind === '' || s.stepKind === 'run' ? '' : s.stepName;
    let e = sums.get(name);
    if (e === undefined) {
      e = { tail: 0, median: 0 };
      sums.set(name, e);
    }
    e[g] += self.get(s.spanId) ?? 0;
  }
  const shares: TailShare[] = [...sums].map(([stepName, e]) => {
    const tailShare = tailTotal === 0 ? 0 : e.tail / tailTotal;
    const medianShare = medianTotal === 0 ? 0 : e.median / medianTotal;
    return { stepName, isStep: stepName !== '', tailShare, medianShare, growth: tailShare - medianShare };
  });
  shares.sort((a, b) => b.growth - a.growth);
  let tailRuns = 0;
  for (const g of group.values()) if (g === 'tail') tailRuns++;
  return {
    tailThresholdNs: tail,
    tailRuns,
    medianRuns: group.size - tailRuns,
    shares,
    driver: shares.find((x) => x.isStep)?.stepName ?? '',
  };
}
