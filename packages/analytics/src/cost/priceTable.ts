import type { PriceTable } from '@telltale/store';
import { BUNDLED_PRICES, type ModelPrice } from './bundledPrices.js';

const PER_TOKEN = 1 / 1_000_000;

/**
 * The per-token table the queries bind: the bundled prices with a project's
 * overrides on top (same model name replaces, new names add).
 */
export function resolvePriceTable(
  overrides: readonly ModelPrice[] = [],
  bundled: readonly ModelPrice[] = BUNDLED_PRICES,
): PriceTable {
  const byModel = new Map<string, ModelPrice>();
  for (const p of bundled) byModel.set(p.model, p);
  for (const p of overrides) byModel.set(p.model, p);
  const rows = [...byModel.values()];
  return {
    models: rows.map((p) => p.model),
    input: rows.map((p) => p.inputPerMTok * PER_TOKEN),
    output: rows.map((p) => p.outputPerMTok * PER_TOKEN),
    cachedInput: rows.map((p) => p.cachedInputPerMTok * PER_TOKEN),
  };
}
