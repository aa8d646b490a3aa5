/**
 * Every `telltale.*` attribute name. No other package spells one as a string
 * literal: import these constants instead.
 */
export const TelltaleAttr = {
  /** Identifies the run a span belongs to; set by the SDK on every span of a run. */
  runId: 'telltale.run.id',
  /** `success` | `failure`, set on the run root when the agent declares its outcome. */
  runOutcome: 'telltale.run.outcome',
  /** Why a guard stopped the run (set on the run span). */
  runStopReason: 'telltale.run.stop_reason',
  /** One of {@link StepKind}. */
  stepKind: 'telltale.step.kind',
  /** Identity of a step across runs. */
  stepName: 'telltale.step.name',
  /** 1-based attempt number inside an attempt group. */
  stepAttempt: 'telltale.step.attempt',
  /** The attempt budget of the group, when known. */
  stepMaxAttempts: 'telltale.step.max_attempts',
  /** `true` when the step changes the world (writes, payments, e-mails…). */
  stepSideEffect: 'telltale.step.side_effect',
  /** Tool name, for tool steps. */
  toolName: 'telltale.tool.name',
  /** Stable hash of the tool arguments (see `@telltale/sdk` stableHash). */
  toolArgsHash: 'telltale.tool.args_hash',
  /** Hash of the agent state a plan / validate step saw. */
  stateHash: 'telltale.state.hash',
  /** Hash of a step's output (used for repeated failed validations). */
  outputHash: 'telltale.output.hash',
  /** Cost of the span in USD, when the instrumentation knows it. */
  costUsd: 'telltale.cost.usd',
  /** Milliseconds from a streamed model call's start to its first output chunk. */
  llmTimeToFirstTokenMs: 'telltale.llm.time_to_first_token_ms',
  /** `true` when the caller stopped reading a streamed model call before it ended (break, abort). */
  llmStreamAbandoned: 'telltale.llm.stream.abandoned',
  /** Resource attribute naming the project in open (no-auth) mode. */
  project: 'telltale.project',
  /** JSON input of a step that is neither a model nor a tool call (SDK content capture). */
  contentInput: 'telltale.content.input',
  /** JSON output of such a step. */
  contentOutput: 'telltale.content.output',
  /** `full` | `metadata`: what the SDK captured of the span's content (absent: nothing). */
  contentCapture: 'telltale.content.capture',
  /** How many strings the SDK's redactors changed in the span's content. */
  contentRedactions: 'telltale.content.redactions',
} as const;
export type TelltaleAttrName = (typeof TelltaleAttr)[keyof typeof TelltaleAttr];

/** OpenTelemetry general and GenAI semantic-convention names we read or write. */
export const OtelAttr = {
  serviceName: 'service.name',
  errorType: 'error.type',
  exceptionType: 'exception.type',
  exceptionMessage: 'exception.message',
  genAiOperationName: 'gen_ai.operation.name',
  genAiProviderName: 'gen_ai.provider.name',
  /** Deprecated predecessor of gen_ai.provider.name. */
  genAiSystem: 'gen_ai.system',
  genAiRequestModel: 'gen_ai.request.model',
  genAiResponseId: 'gen_ai.response.id',
  genAiResponseFinishReasons: 'gen_ai.response.finish_reasons',
  genAiResponseModel: 'gen_ai.response.model',
  genAiInputTokens: 'gen_ai.usage.input_tokens',
  genAiOutputTokens: 'gen_ai.usage.output_tokens',
  genAiCacheReadInputTokens: 'gen_ai.usage.cache_read.input_tokens',
  genAiCacheCreationInputTokens: 'gen_ai.usage.cache_creation.input_tokens',
  genAiReasoningOutputTokens: 'gen_ai.usage.reasoning.output_tokens',
  /** Not in the spec, but sent by OpenLLMetry and others next to input/output tokens. */
  genAiTotalTokens: 'gen_ai.usage.total_tokens',
  /** Deprecated predecessors of input/output tokens. */
  genAiPromptTokens: 'gen_ai.usage.prompt_tokens',
  genAiCompletionTokens: 'gen_ai.usage.completion_tokens',
  genAiToolName: 'gen_ai.tool.name',
  genAiToolCallArguments: 'gen_ai.tool.call.arguments',
  /** JSON of what a tool returned. */
  genAiToolCallResult: 'gen_ai.tool.call.result',
  /** JSON array of the chat history sent to the model: `[{role, parts: [{type, content}]}]`. */
  genAiInputMessages: 'gen_ai.input.messages',
  /** JSON array of the model's answers: `[{role, parts, finish_reason}]`. */
  genAiOutputMessages: 'gen_ai.output.messages',
  /** JSON array of system instruction parts, when sent apart from the chat history. */
  genAiSystemInstructions: 'gen_ai.system_instructions',
  /** Deprecated flat predecessors of the message attributes. */
  genAiPrompt: 'gen_ai.prompt',
  genAiCompletion: 'gen_ai.completion',
  /** The model's id for one tool call, when the caller knows it. */
  genAiToolCallId: 'gen_ai.tool.call.id',
  /** `function`, `extension`, `datastore`: how the tool runs. */
  genAiToolType: 'gen_ai.tool.type',
  genAiAgentName: 'gen_ai.agent.name',
  genAiAgentId: 'gen_ai.agent.id',
  genAiConversationId: 'gen_ai.conversation.id',
} as const;

/** `gen_ai.operation.name` values of the GenAI agent conventions (span names start with them). */
export const GenAiOperation = {
  invokeAgent: 'invoke_agent',
  executeTool: 'execute_tool',
  chat: 'chat',
  textCompletion: 'text_completion',
  generateContent: 'generate_content',
} as const;

/** Model Context Protocol span attributes, and the JSON-RPC and network ones MCP spans carry. */
export const McpAttr = {
  /** `tools/call`, `initialize`, `resources/read`… */
  methodName: 'mcp.method.name',
  sessionId: 'mcp.session.id',
  protocolVersion: 'mcp.protocol.version',
  jsonRpcRequestId: 'jsonrpc.request.id',
  jsonRpcProtocolVersion: 'jsonrpc.protocol.version',
  /** `pipe` for stdio, `tcp` for HTTP. */
  networkTransport: 'network.transport',
  networkProtocolName: 'network.protocol.name',
  serverAddress: 'server.address',
  serverPort: 'server.port',
} as const;

/**
 * Where MCP carries trace context: these keys of a request's `params._meta`
 * (W3C trace context and baggage, as in HTTP headers).
 */
export const McpMetaKey = {
  traceparent: 'traceparent',
  tracestate: 'tracestate',
  baggage: 'baggage',
} as const;

/** The `error.type` of a tool call whose result says `isError: true`. */
export const MCP_TOOL_ERROR_TYPE = 'tool_error';

/** OpenInference attribute names. */
export const OpenInferenceAttr = {
  spanKind: 'openinference.span.kind',
  modelName: 'llm.model_name',
  provider: 'llm.provider',
  /** The model's vendor family (`openai`, `anthropic`…); llm.provider names the hosting provider. */
  system: 'llm.system',
  promptTokens: 'llm.token_count.prompt',
  completionTokens: 'llm.token_count.completion',
  totalTokens: 'llm.token_count.total',
  cacheReadTokens: 'llm.token_count.prompt_details.cache_read',
  reasoningTokens: 'llm.token_count.completion_details.reasoning',
  costTotal: 'llm.cost.total',
  costPrompt: 'llm.cost.prompt',
  costCompletion: 'llm.cost.completion',
  toolName: 'tool.name',
  /** The span's input; on TOOL spans, the tool's arguments. */
  inputValue: 'input.value',
  outputValue: 'output.value',
  /** Flattened messages: `llm.input_messages.{i}.message.role`, `….message.content`. */
  inputMessagesPrefix: 'llm.input_messages.',
  outputMessagesPrefix: 'llm.output_messages.',
  sessionId: 'session.id',
} as const;

/** Vercel AI SDK (`ai.*`) attribute names. */
export const VercelAiAttr = {
  operationId: 'ai.operationId',
  modelId: 'ai.model.id',
  modelProvider: 'ai.model.provider',
  toolCallName: 'ai.toolCall.name',
  toolCallArgs: 'ai.toolCall.args',
  toolCallResult: 'ai.toolCall.result',
  /** JSON `{system?, prompt?, messages?}` of the outer generateText / streamText span. */
  prompt: 'ai.prompt',
  /** JSON array of the messages sent by a doGenerate / doStream span. */
  promptMessages: 'ai.prompt.messages',
  responseText: 'ai.response.text',
  responseToolCalls: 'ai.response.toolCalls',
  responseObject: 'ai.response.object',
  functionId: 'ai.telemetry.functionId',
  /** `experimental_telemetry.metadata.sessionId`, the usual place for a session id in AI SDK apps. */
  metadataSessionId: 'ai.telemetry.metadata.sessionId',
  promptTokens: 'ai.usage.promptTokens',
  completionTokens: 'ai.usage.completionTokens',
  inputTokens: 'ai.usage.inputTokens',
  outputTokens: 'ai.usage.outputTokens',
  totalTokens: 'ai.usage.totalTokens',
  cachedInputTokens: 'ai.usage.cachedInputTokens',
  cacheReadTokens: 'ai.usage.inputTokenDetails.cacheReadTokens',
  reasoningTokens: 'ai.usage.reasoningTokens',
  outputReasoningTokens: 'ai.usage.outputTokenDetails.reasoningTokens',
} as const;

/** OpenLLMetry / Traceloop attribute names (`@traceloop/ai-semantic-conventions`). */
export const TraceloopAttr = {
  /** `workflow` | `task` | `agent` | `tool` | `session`, set by the Traceloop SDK's decorators. */
  spanKind: 'traceloop.span.kind',
  entityName: 'traceloop.entity.name',
  entityPath: 'traceloop.entity.path',
  /** JSON of the decorated function's arguments. */
  entityInput: 'traceloop.entity.input',
  /** JSON of the decorated function's return value. */
  entityOutput: 'traceloop.entity.output',
  /** Flattened messages: `gen_ai.prompt.{i}.role`, `gen_ai.prompt.{i}.content`. */
  promptPrefix: 'gen_ai.prompt.',
  completionPrefix: 'gen_ai.completion.',
  workflowName: 'traceloop.workflow.name',
  /** Association properties are `traceloop.association.properties.<key>`; this is the session key. */
  sessionId: 'traceloop.association.properties.session_id',
  /** Older OpenLLMetry instrumentations: only the total, next to the deprecated prompt/completion names. */
  totalTokens: 'llm.usage.total_tokens',
  cacheReadInputTokens: 'gen_ai.usage.cache_read_input_tokens',
  reasoningTokens: 'gen_ai.usage.reasoning_tokens',
} as const;
