import { DEFAULT_LOOP_THRESHOLDS, resolveLoopThresholds, type LoopThresholds } from '@telltale/semconv';

/**
 * Defaults and the check (a bad value is a BAD_REQUEST TelltaleError naming
 * the threshold) come from the one definition in @telltale/semconv.
 */
export { DEFAULT_LOOP_THRESHOLDS, resolveLoopThresholds };

/**
 * The median of steps per run as the SQL computes it (quantileExact(0.5)):
 * the element at index ⌊n / 2⌋ of the sorted counts — the upper median. NaN
 * for no runs.
 */
export function medianSteps(stepsPerRun: readonly number[]): number {
  if (stepsPerRun.length === 0) return Number.NaN;
  const sorted = [...stepsPerRun].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** max(multiplier × median, hard cap); the hard cap alone without a median (incomplete runs, agents without completed runs). */
export function runawayLimit(t: LoopThresholds, agentMedianSteps: number | null | undefined): number {
  const cap = t.runawayHardCap;
  return agentMedianSteps === null || agentMedianSteps === undefined || Number.isNaN(agentMedianSteps)
    ? cap
    : Math.max(t.runawayMultiplier * agentMedianSteps, cap);
}
