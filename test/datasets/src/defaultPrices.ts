import type { PriceTable } from '@telltale/store';

const M = 1 / 1_000_000;

/**
 * Per-token list prices (USD) of the models the presets call, as published
 * per million tokens (OpenAI / Anthropic pricing pages, 2025). Cached input is
 * the prompt-cache read price. `llama-3.1-8b` (self-hosted) is deliberately
 * absent: its spans are unpriced.
 */
export const DEFAULT_PRICES: PriceTable = {
  models: ['gpt-4o-mini', 'gpt-4o', 'claude-sonnet-4', 'claude-3-5-haiku'],
  input: [0.15 * M, 2.5 * M, 3 * M, 0.8 * M],
  output: [0.6 * M, 10 * M, 15 * M, 4 * M],
  cachedInput: [0.075 * M, 1.25 * M, 0.3 * M, 0.08 * M],
};
