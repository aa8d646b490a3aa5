import type { LlmCallUsage } from '../llm/LlmCallUsage.js';

interface MessageUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}

/**
 * Anthropic usage. Anthropic counts cache reads and writes apart from
 * `input_tokens`; the GenAI convention's input tokens include them, so
 * they are added (cache reads are then priced at the cache price).
 */
export function anthropicUsage(u: MessageUsage | null | undefined): LlmCallUsage | undefined {
  if (u === null || u === undefined) return undefined;
  const read = u.cache_read_input_tokens ?? undefined;
  const created = u.cache_creation_input_tokens ?? undefined;
  return {
    inputTokens: (u.input_tokens ?? 0) + (read ?? 0) + (created ?? 0),
    outputTokens: u.output_tokens ?? 0,
    cacheReadTokens: read,
    cacheCreationTokens: created,
  };
}
