import {
  LOOP_THRESHOLD_DEFINITIONS,
  LOOP_THRESHOLD_NAMES,
  resolveLoopThresholds,
  type LoopThresholdName,
} from '@telltale/semconv';
import type { AgentStepMedian, LoopThresholds } from '../analytics/loopTypes.js';
import type { QueryParams } from './sqlParts.js';

/** Materialised CTEs are computed once however often a query reads them. */
export const MATERIALIZED_CTE_SETTINGS = { enable_materialized_cte: 1 } as const;

/**
 * The thresholds as bound parameters, one per LOOP_THRESHOLD_DEFINITIONS name
 * (`{repeat:UInt32}`, …), checked by the one semconv check: a bad value is a
 * BAD_REQUEST TelltaleError naming it (callers through the analytics facade
 * or the API never get this far with one).
 */
export function thresholdParams(t: LoopThresholds): QueryParams {
  const checked = resolveLoopThresholds(t);
  return Object.fromEntries(LOOP_THRESHOLD_NAMES.map((name) => [name, checked[name]]));
}

/** A threshold's bound parameter in SQL: `{repeat:UInt32}`. */
export function thresholdSql(name: LoopThresholdName): string {
  return `{${name}:${LOOP_THRESHOLD_DEFINITIONS[name].sqlType}}`;
}

/** Bound medians per agent (the `bound` AGENT_LIMITS source); empty arrays when absent. */
export function medianParams(medians: readonly AgentStepMedian[] | undefined): QueryParams {
  const m = medians ?? [];
  return {
    medianServices: m.map((x) => x.service),
    medianAgents: m.map((x) => x.agent),
    medianValues: m.map((x) => x.medianSteps),
  };
}
