import type { RunOutcome, RunSummary } from '@telltale/api-contract';
import { RUN_OUTCOMES } from '@telltale/api-contract';
import { OUTCOME_SWATCHES } from '../palette';

export interface OutcomeBar {
  outcome: RunOutcome;
  label: string;
  count: number;
  color: string;
}

/** Runs per outcome, every outcome present (zero included) in a fixed order. */
export function prepareOutcomeChart(runs: readonly RunSummary[]): OutcomeBar[] {
  const counts = new Map<RunOutcome, number>();
  for (const run of runs) counts.set(run.outcome, (counts.get(run.outcome) ?? 0) + 1);
  return RUN_OUTCOMES.map((outcome) => ({
    outcome,
    label: OUTCOME_SWATCHES[outcome].label,
    count: counts.get(outcome) ?? 0,
    color: OUTCOME_SWATCHES[outcome].color,
  }));
}
