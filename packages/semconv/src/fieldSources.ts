import { OpenInferenceAttr, OtelAttr, TelltaleAttr, TraceloopAttr, VercelAiAttr } from './attributes.js';

/**
 * Where each canonical step field is read from, in precedence order: our own
 * attribute first, then the current OTel GenAI name, then deprecated and
 * other conventions (OpenInference, Vercel AI SDK, OpenLLMetry). The
 * collector compiles these lists once into one name → (field, rank) table
 * and reads each span's attributes in a single pass; adding a convention
 * means adding names here, nowhere else.
 *
 * Fields that are not columns of their own:
 * - `stepKindOwn`, `genAiOperation`, `openInferenceKind`, `traceloopKind`:
 *   the inputs of the step-kind decision (GEN_AI_OPERATION_STEP_KIND…);
 * - `toolArgs`: a tool call's arguments as the instrumentation recorded
 *   them; the collector hashes them into the args hash when no
 *   `telltale.tool.args_hash` is given;
 * - `totalTokens`: used only when a span reports neither input nor output
 *   tokens (then all of it counts as input: a lower bound on the cost);
 * - `costPromptUsd` / `costCompletionUsd`: summed when no total cost is given;
 * - `entityName`: the step name, and the tool name of tool steps, of
 *   OpenLLMetry's decorated spans;
 * - `genAiRequestModel`, `genAiAgentName`: the step name of GenAI spans,
 *   `{operation} {model or agent}` as the spec names them, but built from
 *   the attributes (the span name's digits would be stripped: `gpt-{n}o`).
 */
export const FIELD_SOURCES = {
  runId: [TelltaleAttr.runId],
  stepKindOwn: [TelltaleAttr.stepKind],
  genAiOperation: [OtelAttr.genAiOperationName],
  /** With the operation, the step name of GenAI spans: `chat gpt-4o` (the request model), `invoke_agent planner`. */
  genAiRequestModel: [OtelAttr.genAiRequestModel],
  genAiAgentName: [OtelAttr.genAiAgentName],
  openInferenceKind: [OpenInferenceAttr.spanKind],
  traceloopKind: [TraceloopAttr.spanKind],
  stepName: [TelltaleAttr.stepName],
  entityName: [TraceloopAttr.entityName],
  attempt: [TelltaleAttr.stepAttempt],
  toolName: [TelltaleAttr.toolName, OtelAttr.genAiToolName, OpenInferenceAttr.toolName, VercelAiAttr.toolCallName],
  toolArgsHash: [TelltaleAttr.toolArgsHash],
  toolArgs: [
    OtelAttr.genAiToolCallArguments,
    VercelAiAttr.toolCallArgs,
    TraceloopAttr.entityInput,
    OpenInferenceAttr.inputValue,
  ],
  stateHash: [TelltaleAttr.stateHash],
  outputHash: [TelltaleAttr.outputHash],
  sideEffect: [TelltaleAttr.stepSideEffect],
  model: [OtelAttr.genAiResponseModel, OtelAttr.genAiRequestModel, OpenInferenceAttr.modelName, VercelAiAttr.modelId],
  provider: [
    OtelAttr.genAiProviderName,
    OtelAttr.genAiSystem,
    OpenInferenceAttr.provider,
    OpenInferenceAttr.system,
    VercelAiAttr.modelProvider,
  ],
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
  totalTokens: [
    OtelAttr.genAiTotalTokens,
    TraceloopAttr.totalTokens,
    OpenInferenceAttr.totalTokens,
    VercelAiAttr.totalTokens,
  ],
  cachedInputTokens: [
    OtelAttr.genAiCacheReadInputTokens,
    OpenInferenceAttr.cacheReadTokens,
    VercelAiAttr.cachedInputTokens,
    VercelAiAttr.cacheReadTokens,
    TraceloopAttr.cacheReadInputTokens,
  ],
  costUsd: [TelltaleAttr.costUsd, OpenInferenceAttr.costTotal],
  costPromptUsd: [OpenInferenceAttr.costPrompt],
  costCompletionUsd: [OpenInferenceAttr.costCompletion],
  errorType: [OtelAttr.errorType],
  runOutcome: [TelltaleAttr.runOutcome],
} as const satisfies Record<string, readonly string[]>;

export type CanonicalField = keyof typeof FIELD_SOURCES;

/**
 * Span attributes that group runs into a session / conversation, in
 * precedence order. The store derives each span's `session_id` column from
 * them (migration 0007), so a session spans runs whatever convention
 * named it.
 */
export const SESSION_ID_SOURCES: readonly string[] = [
  OtelAttr.genAiConversationId,
  OpenInferenceAttr.sessionId,
  VercelAiAttr.metadataSessionId,
  TraceloopAttr.sessionId,
];

/**
 * Reasoning tokens (already part of the output tokens in every convention
 * below, so they never add to the cost): stored per span for reporting.
 */
export const REASONING_TOKEN_SOURCES: readonly string[] = [
  OtelAttr.genAiReasoningOutputTokens,
  OpenInferenceAttr.reasoningTokens,
  VercelAiAttr.reasoningTokens,
  VercelAiAttr.outputReasoningTokens,
  TraceloopAttr.reasoningTokens,
];
