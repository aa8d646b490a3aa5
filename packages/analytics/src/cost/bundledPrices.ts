/**
 * List prices in USD per million tokens, as published by each vendor on its
 * API pricing page, read on the date given. Cached input is the price of a
 * prompt-cache read. A project can override any row (and add models).
 */
export interface ModelPrice {
  model: string;
  inputPerMTok: number;
  cachedInputPerMTok: number;
  outputPerMTok: number;
  /** When the price was read, and where. */
  asOf: string;
  source: string;
}

const OPENAI = 'OpenAI API pricing page (standard tier)';
const ANTHROPIC = 'Anthropic API pricing page (cache read price as cached input)';
const GOOGLE = 'Google Gemini API pricing page (paid tier, prompts ≤ 200k tokens)';

export const BUNDLED_PRICES: readonly ModelPrice[] = [
  {
    model: 'gpt-4o',
    inputPerMTok: 2.5,
    cachedInputPerMTok: 1.25,
    outputPerMTok: 10,
    asOf: '2025-08-01',
    source: OPENAI,
  },
  {
    model: 'gpt-4o-mini',
    inputPerMTok: 0.15,
    cachedInputPerMTok: 0.075,
    outputPerMTok: 0.6,
    asOf: '2025-08-01',
    source: OPENAI,
  },
  { model: 'gpt-4.1', inputPerMTok: 2, cachedInputPerMTok: 0.5, outputPerMTok: 8, asOf: '2025-08-01', source: OPENAI },
  {
    model: 'gpt-4.1-mini',
    inputPerMTok: 0.4,
    cachedInputPerMTok: 0.1,
    outputPerMTok: 1.6,
    asOf: '2025-08-01',
    source: OPENAI,
  },
  {
    model: 'gpt-4.1-nano',
    inputPerMTok: 0.1,
    cachedInputPerMTok: 0.025,
    outputPerMTok: 0.4,
    asOf: '2025-08-01',
    source: OPENAI,
  },
  { model: 'o3', inputPerMTok: 2, cachedInputPerMTok: 0.5, outputPerMTok: 8, asOf: '2025-08-01', source: OPENAI },
  {
    model: 'o4-mini',
    inputPerMTok: 1.1,
    cachedInputPerMTok: 0.275,
    outputPerMTok: 4.4,
    asOf: '2025-08-01',
    source: OPENAI,
  },
  {
    model: 'gpt-5',
    inputPerMTok: 1.25,
    cachedInputPerMTok: 0.125,
    outputPerMTok: 10,
    asOf: '2025-08-07',
    source: OPENAI,
  },
  {
    model: 'gpt-5-mini',
    inputPerMTok: 0.25,
    cachedInputPerMTok: 0.025,
    outputPerMTok: 2,
    asOf: '2025-08-07',
    source: OPENAI,
  },
  {
    model: 'gpt-5-nano',
    inputPerMTok: 0.05,
    cachedInputPerMTok: 0.005,
    outputPerMTok: 0.4,
    asOf: '2025-08-07',
    source: OPENAI,
  },
  {
    model: 'claude-opus-4',
    inputPerMTok: 15,
    cachedInputPerMTok: 1.5,
    outputPerMTok: 75,
    asOf: '2025-08-01',
    source: ANTHROPIC,
  },
  {
    model: 'claude-sonnet-4',
    inputPerMTok: 3,
    cachedInputPerMTok: 0.3,
    outputPerMTok: 15,
    asOf: '2025-08-01',
    source: ANTHROPIC,
  },
  {
    model: 'claude-3-7-sonnet',
    inputPerMTok: 3,
    cachedInputPerMTok: 0.3,
    outputPerMTok: 15,
    asOf: '2025-08-01',
    source: ANTHROPIC,
  },
  {
    model: 'claude-3-5-sonnet',
    inputPerMTok: 3,
    cachedInputPerMTok: 0.3,
    outputPerMTok: 15,
    asOf: '2025-08-01',
    source: ANTHROPIC,
  },
  {
    model: 'claude-3-5-haiku',
    inputPerMTok: 0.8,
    cachedInputPerMTok: 0.08,
    outputPerMTok: 4,
    asOf: '2025-08-01',
    source: ANTHROPIC,
  },
  {
    model: 'gemini-2.5-pro',
    inputPerMTok: 1.25,
    cachedInputPerMTok: 0.31,
    outputPerMTok: 10,
    asOf: '2025-08-01',
    source: GOOGLE,
  },
  {
    model: 'gemini-2.5-flash',
    inputPerMTok: 0.3,
    cachedInputPerMTok: 0.075,
    outputPerMTok: 2.5,
    asOf: '2025-08-01',
    source: GOOGLE,
  },
  {
    model: 'gemini-2.0-flash',
    inputPerMTok: 0.1,
    cachedInputPerMTok: 0.025,
    outputPerMTok: 0.4,
    asOf: '2025-08-01',
    source: GOOGLE,
  },
];
