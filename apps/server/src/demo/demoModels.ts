/** Models the demo fleet calls, with list prices in USD per million tokens. */
export interface DemoModel {
  id: string;
  provider: string;
  inputPerM: number;
  cachedInputPerM: number;
  outputPerM: number;
  /** Time to first token and per output token, for simulated latency. */
  baseMs: number;
  msPerOutputToken: number;
}

export const DEMO_MODELS = {
  gpt4oMini: {
    id: 'gpt-4o-mini',
    provider: 'openai',
    inputPerM: 0.15,
    cachedInputPerM: 0.075,
    outputPerM: 0.6,
    baseMs: 350,
    msPerOutputToken: 9,
  },
  gpt4o: {
    id: 'gpt-4o',
    provider: 'openai',
    inputPerM: 2.5,
    cachedInputPerM: 1.25,
    outputPerM: 10,
    baseMs: 500,
    msPerOutputToken: 14,
  },
  claudeSonnet4: {
    id: 'claude-sonnet-4',
    provider: 'anthropic',
    inputPerM: 3,
    cachedInputPerM: 0.3,
    outputPerM: 15,
    baseMs: 700,
    msPerOutputToken: 18,
  },
  claudeHaiku: {
    id: 'claude-3-5-haiku',
    provider: 'anthropic',
    inputPerM: 0.8,
    cachedInputPerM: 0.08,
    outputPerM: 4,
    baseMs: 300,
    msPerOutputToken: 8,
  },
} as const satisfies Record<string, DemoModel>;

export interface TokenUsage {
  /** All input tokens, cached ones included (OTel GenAI semantics). */
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
}

/** Cost of one call: uncached input + cached input + output, each at its price. */
export function modelCostUsd(model: DemoModel, usage: TokenUsage): number {
  const uncached = Math.max(0, usage.inputTokens - usage.cachedInputTokens);
  const usd =
    (uncached * model.inputPerM +
      usage.cachedInputTokens * model.cachedInputPerM +
      usage.outputTokens * model.outputPerM) /
    1e6;
  return Math.round(usd * 1e8) / 1e8;
}
