import { DEFAULT_THRESHOLDS, type DatasetSpec } from './DatasetSpec.js';
import { benchAgents } from './agents/benchAgents.js';
import { DEFAULT_PRICES } from './defaultPrices.js';
import { presetWindow, type PresetOptions } from './presetWindow.js';

/** Load-test data: 100k runs ≈ 10M spans (60–140 per run) by default; loops, incompletes and traps included. */
export function benchDataset(opts: PresetOptions = {}): DatasetSpec {
  return {
    seed: opts.seed ?? 7_777,
    runs: opts.runs ?? 100_000,
    ...presetWindow(opts),
    agents: benchAgents(),
    // Bench runs are long (median ~90 steps): the runaway cap must exceed 3 × that.
    thresholds: { ...DEFAULT_THRESHOLDS, runawayHardCap: 400 },
    cost: { prices: DEFAULT_PRICES, explicitShare: opts.explicitCostShare ?? 0.3, explicitMarkup: 1.25 },
  };
}
