import { DEFAULT_THRESHOLDS, type DatasetSpec } from './DatasetSpec.js';
import { checkoutAgent } from './agents/checkoutAgent.js';
import { coderAgent } from './agents/coderAgent.js';
import { legacyAgent } from './agents/legacyAgent.js';
import { pipelineAgent } from './agents/pipelineAgent.js';
import { supportAgent } from './agents/supportAgent.js';
import { triageAgent } from './agents/triageAgent.js';
import { DEFAULT_PRICES } from './defaultPrices.js';
import { presetWindow, type PresetOptions } from './presetWindow.js';

/** About 2,000 runs / 20k spans over six agents in two projects: every metric, loop kind and failure cause. */
export function smallDataset(opts: PresetOptions = {}): DatasetSpec {
  return {
    seed: opts.seed ?? 20_240_601,
    runs: opts.runs ?? 2_000,
    ...presetWindow(opts),
    agents: [pipelineAgent(), triageAgent(), supportAgent(), legacyAgent(), coderAgent(), checkoutAgent()],
    thresholds: DEFAULT_THRESHOLDS,
    cost: { prices: DEFAULT_PRICES, explicitShare: opts.explicitCostShare ?? 0.3, explicitMarkup: 1.25 },
  };
}
