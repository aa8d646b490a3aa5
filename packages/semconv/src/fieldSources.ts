import { OpenInferenceAttr, OtelAttr, TelltaleAttr, VercelAiAttr } from './attributes.js';

/**
 * Where each canonical step field is read from, in precedence order: our own
 * attribute first, then the current OTel GenAI name, then deprecated and
 * other conventions. The collector's normaliser walks these lists; adding a
 * convention means adding names here, nowhere else.
 */
export const FIELD_SOURCES = {
  runId: [TelltaleAttr.runId],
  stepName: [TelltaleAttr.stepName],
  attempt: [TelltaleAttr.stepAttempt],
  toolName: [TelltaleAttr.toolName, OtelAttr.genAiToolName, OpenInferenceAttr.toolName, VercelAiAttr.toolCallName],
  toolArgsHash: [TelltaleAttr.toolArgsHash],
  stateHash: [TelltaleAttr.stateHash],
  outputHash: [TelltaleAttr.outputHash],
  sideEffect: [TelltaleAttr.stepSideEffect],
  model: [OtelAttr.genAiResponseModel, OtelAttr.genAiRequestModel, OpenInferenceAttr.modelName, VercelAiAttr.modelId],
  provider: [OtelAttr.genAiProviderName, OtelAttr.genAiSystem, OpenInferenceAttr.provider, VercelAiAttr.modelProvider],
  inputTokens: [
    OtelAttr.genAiInputTokens,
    OtelAttr.genAiPromptTokens,
    OpenInferenceAttr.promptTokens,
    VercelAiAttr.inputTokens,
    VercelAiAttr.promptTokens,
  ],
  outputTokens: [
    OtelAttr.genAiOutputTokens,
    OtelAttr.genAiCompletionTokens,
    OpenInferenceAttr.completionTokens,
    VercelAiAttr.outputTokens,
    VercelAiAttr.completionTokens,
  ],
  cachedInputTokens: [OtelAttr.genAiCacheReadInputTokens, OpenInferenceAttr.cacheReadTokens],
  costUsd: [TelltaleAttr.costUsd, OpenInferenceAttr.costTotal],
  errorType: [OtelAttr.errorType],
  runOutcome: [TelltaleAttr.runOutcome],
} as const satisfies Record<string, readonly string[]>;

export type CanonicalField = keyof typeof FIELD_SOURCES;
