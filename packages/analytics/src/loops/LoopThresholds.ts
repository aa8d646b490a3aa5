import { DEFAULT_LOOP_THRESHOLDS, type LoopThresholds } from '@telltale/store';
import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';

export { DEFAULT_LOOP_THRESHOLDS };

/** The defaults with `overrides` applied, checked: whole numbers ≥ 2 for repeat and cycles, ≥ 1 for the cap, a positive multiplier. */
export function resolveLoopThresholds(overrides: Partial<LoopThresholds> = {}): LoopThresholds {
  const t: LoopThresholds = { ...DEFAULT_LOOP_THRESHOLDS, ...stripUndefined(overrides) };
  const bad = (message: string): never => {
    throw new TelltaleError({ code: TelltaleErrorCode.BAD_REQUEST, message });
  };
  if (!Number.isInteger(t.repeat) || t.repeat < 2) bad(`loop threshold repeat must be a whole number ≥ 2, got ${t.repeat}`);
  if (!Number.isInteger(t.pingPongCycles) || t.pingPongCycles < 2) bad(`loop threshold pingPongCycles must be a whole number ≥ 2, got ${t.pingPongCycles}`);
  if (!Number.isInteger(t.runawayHardCap) || t.runawayHardCap < 1) bad(`loop threshold runawayHardCap must be a whole number ≥ 1, got ${t.runawayHardCap}`);
  if (!Number.isFinite(t.runawayMultiplier) || t.runawayMultiplier <= 0) bad(`loop threshold runawayMultiplier must be a positive number, got ${t.runawayMultiplier}`);
  return t;
}

function stripUndefined(o: Partial<LoopThresholds>): Partial<LoopThresholds> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

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
  return agentMedianSteps === null || agentMedianSteps === undefined || Number.isNaN(agentMedianSteps) ? cap : Math.max(t.runawayMultiplier * agentMedianSteps, cap);
}
