import type { GeneratedStepKind, LatencySpec, LlmSpec, StepSpec } from '../DatasetSpec.js';

export const ERRORS = {
  tool: ['ToolError', 'HTTPError', 'Timeout'],
  llm: ['RateLimitError', 'APIConnectionError', 'Timeout'],
  retrieval: ['Timeout', 'IndexUnavailable'],
  validate: ['ValidationError'],
  plan: ['PlanParseError'],
  act: ['ActionRejected'],
  handoff: ['HandoffError', 'SpecialistTimeout'],
  guardrail: ['GuardrailTripped'],
} as const satisfies Record<string, readonly string[]>;

export function latency(medianMs: number, sigma = 0.35, tail?: LatencySpec['tail']): LatencySpec {
  return tail === undefined ? { medianMs, sigma } : { medianMs, sigma, tail };
}

export function llm(
  model: 'gpt-4o-mini' | 'gpt-4o' | 'claude-sonnet-4' | 'claude-3-5-haiku' | 'llama-3.1-8b',
  input: [number, number],
  output: [number, number],
  cachedShare = 0.5,
): LlmSpec {
  const provider = model.startsWith('gpt') ? 'openai' : model.startsWith('claude') ? 'anthropic' : 'vllm';
  return { model, provider, inputTokens: input, outputTokens: output, cachedShare };
}

/**
 * Retry parameters that give eventual success p: with retry success r and m
 * attempts, f = 1 − (1 − p) / (1 − r)^(m−1).
 */
export function eventual(
  p: number,
  retrySuccess: number,
  maxAttempts: number,
): Pick<StepSpec, 'firstAttemptSuccess' | 'retrySuccess' | 'maxAttempts'> {
  const f = 1 - (1 - p) / (1 - retrySuccess) ** (maxAttempts - 1);
  if (!(f > 0 && f <= 1))
    throw new RangeError(`no first-attempt success gives p=${p} with r=${retrySuccess}, m=${maxAttempts}`);
  return { firstAttemptSuccess: f, retrySuccess, maxAttempts };
}

/** A step that never fails (children used for nesting and self time). */
export const ALWAYS: Pick<StepSpec, 'firstAttemptSuccess' | 'retrySuccess' | 'maxAttempts'> = {
  firstAttemptSuccess: 1,
  retrySuccess: 1,
  maxAttempts: 1,
};

type StepInit = Omit<StepSpec, 'type' | 'name' | 'kind' | 'errorTypes'> & { errorTypes?: readonly string[] };

export function step(kind: GeneratedStepKind, name: string, init: StepInit): StepSpec {
  const errorTypes = init.errorTypes ?? (ERRORS as Record<string, readonly string[]>)[kind] ?? ['Error'];
  return { type: 'step', name, kind, ...init, errorTypes };
}
