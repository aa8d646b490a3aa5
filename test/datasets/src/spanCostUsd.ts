import type { PriceTable, SpanRecord } from '@telltale/store';

/** Step kinds whose spans repeat their children's usage: their tokens and cost never count. */
export const AGGREGATE_STEP_KINDS: ReadonlySet<string> = new Set(['', 'run', 'handoff']);

/** Whether a span's usage and cost count towards run, step and model totals. */
export function usageCounts(stepKind: string): boolean {
  return !AGGREGATE_STEP_KINDS.has(stepKind);
}

export interface SpanCost {
  costUsd: number;
  /** Counted, has tokens, no explicit cost and no price for its model: cost 0. */
  unpriced: boolean;
}

type CostFields = Pick<
  SpanRecord,
  'stepKind' | 'costUsd' | 'model' | 'inputTokens' | 'outputTokens' | 'cachedInputTokens'
>;

/** Price of a call: non-cached input at the input price, cached input at the cache price, output at the output price. */
export function priceTokens(
  prices: PriceTable,
  model: string,
  inputTokens: number,
  outputTokens: number,
  cachedInputTokens: number,
): number | undefined {
  const i = prices.models.indexOf(model);
  if (i < 0) return undefined;
  const cached = Math.min(cachedInputTokens, inputTokens);
  return (inputTokens - cached) * prices.input[i]! + cached * prices.cachedInput[i]! + outputTokens * prices.output[i]!;
}

/**
 * The cost a span contributes: 0 on aggregate kinds ('', run, handoff); else
 * its explicit `costUsd`; else its tokens priced from the table (OTel input
 * tokens include cached ones, which are billed at the cache price only).
 */
export function spanCostUsd(span: CostFields, prices: PriceTable): SpanCost {
  if (!usageCounts(span.stepKind)) return { costUsd: 0, unpriced: false };
  if (span.costUsd !== null) return { costUsd: span.costUsd, unpriced: false };
  if (span.inputTokens + span.outputTokens === 0) return { costUsd: 0, unpriced: false };
  const priced = priceTokens(prices, span.model, span.inputTokens, span.outputTokens, span.cachedInputTokens);
  return priced === undefined ? { costUsd: 0, unpriced: true } : { costUsd: priced, unpriced: false };
}
