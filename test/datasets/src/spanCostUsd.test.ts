import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICES } from './defaultPrices.js';
import { spanCostUsd } from './spanCostUsd.js';

const base = {
  stepKind: 'llm',
  costUsd: null,
  model: 'gpt-4o',
  inputTokens: 1_000_000,
  outputTokens: 100_000,
  cachedInputTokens: 400_000,
};

describe('spanCostUsd', () => {
  it('bills non-cached input at the input price, cached input at the cache price, output at the output price', () => {
    // gpt-4o: $2.50 / $1.25 cached / $10 per million tokens.
    expect(spanCostUsd(base, DEFAULT_PRICES).costUsd).toBeCloseTo(0.6 * 2.5 + 0.4 * 1.25 + 0.1 * 10, 12);
  });

  it('prefers an explicit cost, counts nothing on aggregate kinds, flags unpriced models', () => {
    expect(spanCostUsd({ ...base, costUsd: 0.123 }, DEFAULT_PRICES)).toEqual({ costUsd: 0.123, unpriced: false });
    for (const kind of ['', 'run', 'handoff'])
      expect(spanCostUsd({ ...base, stepKind: kind, costUsd: 9 }, DEFAULT_PRICES)).toEqual({
        costUsd: 0,
        unpriced: false,
      });
    expect(spanCostUsd({ ...base, model: 'llama-3.1-8b' }, DEFAULT_PRICES)).toEqual({ costUsd: 0, unpriced: true });
    expect(
      spanCostUsd(
        { ...base, model: 'llama-3.1-8b', inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 },
        DEFAULT_PRICES,
      ),
    ).toEqual({ costUsd: 0, unpriced: false });
    expect(spanCostUsd({ ...base, stepKind: 'plan' }, DEFAULT_PRICES).costUsd).toBeGreaterThan(0);
  });
});
