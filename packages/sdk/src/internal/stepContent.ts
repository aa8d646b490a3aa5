import type { Attributes } from '@opentelemetry/api';
import { OtelAttr, StepKind, TelltaleAttr } from '@telltale/semconv';
import { captureValue, type ContentSettings } from './contentCapture.js';

export type ContentDirection = 'input' | 'output';

/**
 * The content attributes of one side of a step, as the GenAI conventions
 * name them: a model call's messages (`gen_ai.input.messages`,
 * `gen_ai.output.messages`), a tool call's arguments and result
 * (`gen_ai.tool.call.arguments`, `gen_ai.tool.call.result`), and for other
 * steps `telltale.content.input` / `.output`. Empty under `none`.
 */
export function contentAttributes(
  kind: string,
  direction: ContentDirection,
  value: unknown,
  settings: ContentSettings,
): Attributes {
  if (settings.mode === 'none' || value === undefined) return {};
  const key = attributeOf(kind, direction);
  const shaped = kind === StepKind.llm ? genAiMessages(value, direction) : value;
  const captured = captureValue(
    shaped,
    settings,
    key === TelltaleAttr.contentInput || key === TelltaleAttr.contentOutput,
  );
  if (captured === undefined) return {};
  const attributes: Attributes = { [key]: captured.json, [TelltaleAttr.contentCapture]: settings.mode };
  if (captured.redactions > 0) attributes[TelltaleAttr.contentRedactions] = captured.redactions;
  return attributes;
}

function attributeOf(kind: string, direction: ContentDirection): string {
  if (kind === StepKind.llm) return direction === 'input' ? OtelAttr.genAiInputMessages : OtelAttr.genAiOutputMessages;
  if (kind === StepKind.tool)
    return direction === 'input' ? OtelAttr.genAiToolCallArguments : OtelAttr.genAiToolCallResult;
  return direction === 'input' ? TelltaleAttr.contentInput : TelltaleAttr.contentOutput;
}

interface GenAiMessage {
  role: string;
  parts: unknown[];
  finish_reason?: string;
}

/**
 * Chat messages in the GenAI shape `[{role, parts: [{type: 'text', content}]}]`.
 * Takes a string (one user message on input, one assistant message on
 * output), a message, or a list of `{role, content}` messages whose content
 * is a string or a list of provider parts (`{type: 'text', text}` become
 * text parts; others are kept as they are).
 */
export function genAiMessages(value: unknown, direction: ContentDirection): GenAiMessage[] {
  const defaultRole = direction === 'input' ? 'user' : 'assistant';
  const list = Array.isArray(value) ? value : [value];
  return list.map((m) => toMessage(m, defaultRole));
}

function toMessage(m: unknown, defaultRole: string): GenAiMessage {
  if (typeof m === 'string') return { role: defaultRole, parts: [{ type: 'text', content: m }] };
  if (m === null || typeof m !== 'object') return { role: defaultRole, parts: [{ type: 'text', content: String(m) }] };
  const o = m as Record<string, unknown>;
  if (Array.isArray(o.parts)) return o as unknown as GenAiMessage;
  const role = typeof o.role === 'string' ? o.role : defaultRole;
  const parts: unknown[] = [];
  const content = o.content;
  if (typeof content === 'string') parts.push({ type: 'text', content });
  else if (Array.isArray(content)) for (const p of content) parts.push(toPart(p));
  else if (content !== undefined && content !== null) parts.push(content);
  if (Array.isArray(o.tool_calls))
    for (const call of o.tool_calls) parts.push({ type: 'tool_call', ...asObject(call) });
  const message: GenAiMessage = { role, parts };
  if (typeof o.finish_reason === 'string') message.finish_reason = o.finish_reason;
  return message;
}

function toPart(p: unknown): unknown {
  if (typeof p === 'string') return { type: 'text', content: p };
  const o = asObject(p);
  if (o.type === 'text' && typeof o.text === 'string') return { type: 'text', content: o.text };
  return p;
}

function asObject(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' ? (v as Record<string, unknown>) : { value: v };
}
