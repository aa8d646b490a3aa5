import type { AgentStepMedian, LoopThresholds } from './loopTypes.js';
import type { QueryParams } from './sqlParts.js';

/** Materialised CTEs are computed once however often a query reads them. */
export const MATERIALIZED_CTE_SETTINGS = { enable_materialized_cte: 1 } as const;

/** The four thresholds as bound parameters (`repeat`, `pingPongCycles`, `runawayMultiplier`, `runawayHardCap`). */
export function thresholdParams(t: LoopThresholds): QueryParams {
  const whole = (name: string, v: number, min: number): number => {
    if (!Number.isInteger(v) || v < min) throw new RangeError(`loop threshold ${name} must be a whole number ≥ ${min}, got ${v}`);
    return v;
  };
  if (!Number.isFinite(t.runawayMultiplier) || t.runawayMultiplier <= 0) {
    throw new RangeError(`loop threshold runawayMultiplier must be a positive number, got ${t.runawayMultiplier}`);
  }
  return {
    repeat: whole('repeat', t.repeat, 2),
    pingPongCycles: whole('pingPongCycles', t.pingPongCycles, 2),
    runawayMultiplier: t.runawayMultiplier,
    runawayHardCap: whole('runawayHardCap', t.runawayHardCap, 1),
  };
}

/** Bound medians per agent (the `bound` AGENT_LIMITS source); empty arrays when absent. */
export function medianParams(medians: readonly AgentStepMedian[] | undefined): QueryParams {
  const m = medians ?? [];
  return { medianServices: m.map((x) => x.service), medianAgents: m.map((x) => x.agent), medianValues: m.map((x) => x.medianSteps) };
}
