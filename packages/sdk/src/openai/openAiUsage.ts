import type { LlmCallUsage } from '../llm/LlmCallUsage.js';

interface ChatUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number } | null;
  completion_tokens_details?: { reasoning_tokens?: number } | null;
}

interface ResponsesUsage {
  input_tokens?: number;
  output_tokens?: number;
  input_tokens_details?: { cached_tokens?: number } | null;
  output_tokens_details?: { reasoning_tokens?: number } | null;
}

/** Chat Completions usage (prompt tokens include cached ones, completion tokens include reasoning). */
export function chatUsage(u: ChatUsage | null | undefined): LlmCallUsage | undefined {
  if (u === null || u === undefined) return undefined;
  return {
    inputTokens: u.prompt_tokens ?? 0,
    outputTokens: u.completion_tokens ?? 0,
    cacheReadTokens: u.prompt_tokens_details?.cached_tokens,
    reasoningTokens: u.completion_tokens_details?.reasoning_tokens,
  };
}

/** Responses API usage (same inclusions as chat, other names). */
export function responsesUsage(u: ResponsesUsage | null | undefined): LlmCallUsage | undefined {
  if (u === null || u === undefined) return undefined;
  return {
    inputTokens: u.input_tokens ?? 0,
    outputTokens: u.output_tokens ?? 0,
    cacheReadTokens: u.input_tokens_details?.cached_tokens,
    reasoningTokens: u.output_tokens_details?.reasoning_tokens,
  };
}
