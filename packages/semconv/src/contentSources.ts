import { OpenInferenceAttr, OtelAttr, TelltaleAttr, TraceloopAttr, VercelAiAttr } from './attributes.js';

/** Which half of a step's content an attribute holds. */
export type ContentSide = 'input' | 'output';

/**
 * How an attribute's value is read (the collector has one parser per shape):
 * - `genAiMessages`: JSON `[{role, parts: [{type: 'text', content} | {type: 'tool_call', …} …]}]` (current GenAI);
 * - `genAiSystemInstructions`: JSON `[{type: 'text', content}]`, one system message;
 * - `chatMessages`: JSON `[{role, content: string | [{type: 'text', text}]}]` (AI SDK, older GenAI);
 * - `vercelPrompt`: JSON `{system?, prompt?, messages?}` (AI SDK outer spans);
 * - `toolArguments` / `toolResult`: a tool call's arguments / result, kept as sent;
 * - `text`: free text (or JSON of unknown shape), kept as sent.
 */
export type ContentShape =
  | 'genAiMessages'
  | 'genAiSystemInstructions'
  | 'chatMessages'
  | 'vercelPrompt'
  | 'toolArguments'
  | 'toolResult'
  | 'text';

export interface ContentAttributeSource {
  attribute: string;
  side: ContentSide;
  shape: ContentShape;
}

/**
 * Span attributes that carry content, per convention. The collector moves
 * every one of them out of the span row into the content table (they are
 * never stored with the span), parsed by `shape`. Within a side, the first
 * source of a slot that is present wins.
 */
export const CONTENT_ATTRIBUTE_SOURCES: readonly ContentAttributeSource[] = [
  // OpenTelemetry GenAI (current)
  { attribute: OtelAttr.genAiSystemInstructions, side: 'input', shape: 'genAiSystemInstructions' },
  { attribute: OtelAttr.genAiInputMessages, side: 'input', shape: 'genAiMessages' },
  { attribute: OtelAttr.genAiOutputMessages, side: 'output', shape: 'genAiMessages' },
  { attribute: OtelAttr.genAiToolCallArguments, side: 'input', shape: 'toolArguments' },
  { attribute: OtelAttr.genAiToolCallResult, side: 'output', shape: 'toolResult' },
  // OpenTelemetry GenAI (deprecated flat JSON)
  { attribute: OtelAttr.genAiPrompt, side: 'input', shape: 'chatMessages' },
  { attribute: OtelAttr.genAiCompletion, side: 'output', shape: 'chatMessages' },
  // Telltale SDK, steps that are neither model nor tool calls
  { attribute: TelltaleAttr.contentInput, side: 'input', shape: 'text' },
  { attribute: TelltaleAttr.contentOutput, side: 'output', shape: 'text' },
  // Vercel AI SDK
  { attribute: VercelAiAttr.promptMessages, side: 'input', shape: 'chatMessages' },
  { attribute: VercelAiAttr.prompt, side: 'input', shape: 'vercelPrompt' },
  { attribute: VercelAiAttr.toolCallArgs, side: 'input', shape: 'toolArguments' },
  { attribute: VercelAiAttr.toolCallResult, side: 'output', shape: 'toolResult' },
  { attribute: VercelAiAttr.responseText, side: 'output', shape: 'text' },
  { attribute: VercelAiAttr.responseObject, side: 'output', shape: 'text' },
  { attribute: VercelAiAttr.responseToolCalls, side: 'output', shape: 'toolArguments' },
  // OpenInference
  { attribute: OpenInferenceAttr.inputValue, side: 'input', shape: 'text' },
  { attribute: OpenInferenceAttr.outputValue, side: 'output', shape: 'text' },
  // OpenLLMetry decorators
  { attribute: TraceloopAttr.entityInput, side: 'input', shape: 'text' },
  { attribute: TraceloopAttr.entityOutput, side: 'output', shape: 'text' },
];

/**
 * Messages flattened into one attribute per field, `{prefix}{index}.{field}`:
 * OpenInference (`llm.input_messages.0.message.role`) and OpenLLMetry
 * (`gen_ai.prompt.0.role`). Every attribute under a prefix is content.
 */
export interface ContentFlatMessageSource {
  prefix: string;
  side: ContentSide;
  roleField: string;
  contentField: string;
}

export const CONTENT_FLAT_MESSAGE_SOURCES: readonly ContentFlatMessageSource[] = [
  {
    prefix: OpenInferenceAttr.inputMessagesPrefix,
    side: 'input',
    roleField: 'message.role',
    contentField: 'message.content',
  },
  {
    prefix: OpenInferenceAttr.outputMessagesPrefix,
    side: 'output',
    roleField: 'message.role',
    contentField: 'message.content',
  },
  { prefix: TraceloopAttr.promptPrefix, side: 'input', roleField: 'role', contentField: 'content' },
  { prefix: TraceloopAttr.completionPrefix, side: 'output', roleField: 'role', contentField: 'content' },
];

/**
 * The deprecated GenAI per-message span events: event name → side and role
 * (`gen_ai.choice` takes the role its body names, else `assistant`). Their
 * text is in the `content` attribute, or in `gen_ai.event.content` as JSON
 * `{content, role}`. The collector moves these events out of the span row.
 */
export const CONTENT_MESSAGE_EVENTS: Readonly<Record<string, { side: ContentSide; role: string }>> = {
  'gen_ai.system.message': { side: 'input', role: 'system' },
  'gen_ai.user.message': { side: 'input', role: 'user' },
  'gen_ai.assistant.message': { side: 'input', role: 'assistant' },
  'gen_ai.tool.message': { side: 'input', role: 'tool' },
  'gen_ai.choice': { side: 'output', role: 'assistant' },
};

/** Event attributes holding a message event's text, in precedence order. */
export const CONTENT_EVENT_BODY_KEYS: readonly string[] = ['gen_ai.event.content', 'content', 'message'];

/** Whether a span attribute carries content (and so never belongs in the span row). */
export function isContentAttribute(key: string): boolean {
  if (CONTENT_ATTRIBUTE_KEYS.has(key)) return true;
  for (const source of CONTENT_FLAT_MESSAGE_SOURCES) if (key.startsWith(source.prefix)) return true;
  return false;
}

const CONTENT_ATTRIBUTE_KEYS: ReadonlySet<string> = new Set(CONTENT_ATTRIBUTE_SOURCES.map((s) => s.attribute));
