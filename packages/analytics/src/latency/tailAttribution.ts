import { MEDIAN_BAND, TAIL_LEVEL } from '@telltale/semconv';
import type { StoreRows } from '@telltale/store';

export interface TailStepShare {
  /** The step name; '' for the run root's own time (`run`) and for spans that are not steps (`other`). */
  stepName: string;
  kind: StoreRows.TailTimeKind;
  /** Self time of the step in the tail runs / the tail runs' total duration. */
  tailShare: number;
  medianShare: number;
  /** tailShare − medianShare. */
  delta: number;
}

export interface TailAttribution {
  /** Run-duration percentile the tail starts at (0.99). */
  tailLevel: number;
  /** Percentile band standing for "the median" ([0.45, 0.55]). */
  medianBand: readonly [number, number];
  completedRuns: number;
  /** Runs with duration ≥ p99. */
  tailRuns: number;
  /** Other runs with duration in [p45, p55]. */
  medianRuns: number;
  /** Run-duration thresholds (exact percentiles of completed runs' root durations); null without runs. */
  thresholdsNs: { p99: number; p50: number; p45: number; p55: number } | null;
  /** Largest delta first. */
  steps: TailStepShare[];
  /** The step (kind `step`) whose share grows most from the median to the tail; null when none grows or a group is empty. */
  tailDriver: string | null;
}

/**
 * RELIABILITY-MATH "Tail attribution": shares of run time by step name in the
 * slowest runs against runs at the median. A share is the step's summed self
 * time over the group's summed run durations; self time of parallel children
 * counts for each, so shares can add up to more than 1.
 */
export function tailAttribution(rows: StoreRows.TailAttributionRows): TailAttribution {
  const share = (ns: number, total: number): number => (total > 0 ? ns / total : 0);
  const steps = rows.steps.map((s) => {
    const tailShare = share(s.tailSelfNs, rows.tailRunNs);
    const medianShare = share(s.medianSelfNs, rows.medianRunNs);
    return { stepName: s.stepName, kind: s.kind, tailShare, medianShare, delta: tailShare - medianShare };
  });
  steps.sort((a, b) => b.delta - a.delta || (a.stepName < b.stepName ? -1 : a.stepName > b.stepName ? 1 : 0));
  const driver = steps.find((s) => s.kind === 'step');
  return {
    tailLevel: TAIL_LEVEL,
    medianBand: MEDIAN_BAND,
    completedRuns: rows.completedRuns,
    tailRuns: rows.tailRuns,
    medianRuns: rows.medianRuns,
    thresholdsNs:
      rows.completedRuns === 0 ? null : { p99: rows.p99Ns, p50: rows.p50Ns, p45: rows.p45Ns, p55: rows.p55Ns },
    steps,
    tailDriver:
      driver !== undefined && driver.delta > 0 && rows.tailRuns > 0 && rows.medianRuns > 0 ? driver.stepName : null,
  };
}
