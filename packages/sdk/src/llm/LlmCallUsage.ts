/** Usage of one model call, normalized across providers (input includes cached input). */
export interface LlmCallUsage {
  /** Every input token, cached or not (the GenAI convention's `gen_ai.usage.input_tokens`). */
  inputTokens: number;
  outputTokens: number;
  /** Input tokens read from the prompt cache (part of `inputTokens`). */
  cacheReadTokens?: number | undefined;
  /** Input tokens written to the prompt cache (part of `inputTokens`). */
  cacheCreationTokens?: number | undefined;
  /** Reasoning tokens (part of `outputTokens`). */
  reasoningTokens?: number | undefined;
}
