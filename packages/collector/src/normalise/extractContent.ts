import {
  CONTENT_ATTRIBUTE_SOURCES,
  CONTENT_EVENT_BODY_KEYS,
  CONTENT_FLAT_MESSAGE_SOURCES,
  CONTENT_MESSAGE_EVENTS,
  TelltaleAttr,
  isContentAttribute,
  type ContentShape,
  type ContentSide,
} from '@telltale/semconv';
import {
  addMessages,
  addMessagesJson,
  messageOf,
  parseJson,
  partsText,
  type ContentHalf,
  type ContentMessage,
  type VerbatimMessages,
} from '@telltale/store/encode';
import type { AnyValue, KeyValue, OtlpEvent, OtlpSpan } from '../otlp/types.js';

/** A span split in two: the span without its content, and the content it carried. */
export interface SplitSpan {
  span: OtlpSpan;
  /** The content attributes as received (the caller hashes tool arguments from them). */
  contentAttributes: KeyValue[];
  /** Undefined when the span carried no content. */
  content: { input: ContentHalf; output: ContentHalf; capture: string; redactions: number } | undefined;
}

const SOURCE_BY_ATTRIBUTE = new Map(CONTENT_ATTRIBUTE_SOURCES.map((s, rank) => [s.attribute, { ...s, rank }]));
const FLAT_PREFIXES = CONTENT_FLAT_MESSAGE_SOURCES.map((s) => s.prefix);

/**
 * A message list at least this long, the only content of its side, is kept
 * as the JSON text it came in (ContentHalf.verbatim) and read into messages
 * only when someone reads it: parsing and encoding it again here would cost
 * more than everything else the span costs. A shorter one is read now (so
 * a list of empty messages still stores no row).
 */
const VERBATIM_FROM = 256;

/**
 * Moves every content attribute (CONTENT_ATTRIBUTE_SOURCES, the flattened
 * message prefixes) and every deprecated GenAI message event out of the
 * span, and reads them into input and output halves. A span without content
 * is returned as it is.
 */
export function splitContent(span: OtlpSpan): SplitSpan {
  let contentAttributes: KeyValue[] | undefined;
  for (const kv of span.attributes) if (isContentAttribute(kv.key)) (contentAttributes ??= []).push(kv);
  const messageEvents = span.events.filter((e) => CONTENT_MESSAGE_EVENTS[e.name] !== undefined);
  if (contentAttributes === undefined && messageEvents.length === 0)
    return { span, contentAttributes: [], content: undefined };
  const attrs = contentAttributes ?? [];
  const keep = span.attributes.filter((kv) => !isContentAttribute(kv.key) && !isCaptureMarker(kv.key));
  const events = messageEvents.length === 0 ? span.events : span.events.filter((e) => !messageEvents.includes(e));
  const capture = span.attributes.find((kv) => kv.key === TelltaleAttr.contentCapture)?.value;
  const redactions = span.attributes.find((kv) => kv.key === TelltaleAttr.contentRedactions)?.value;
  return {
    span: { ...span, attributes: keep, events },
    contentAttributes: attrs,
    content: readContent(attrs, messageEvents, capture, redactions),
  };
}

/** A string value left as the UTF-8 bytes it came in (valid UTF-8), made a string only when needed. */
export interface Utf8Text {
  /** Whether the string is at least `n` UTF-16 units long (as `string().length >= n`). */
  lengthAtLeast(n: number): boolean;
  string(): string;
  /** A verbatim message list of this text, written as its bytes. */
  verbatim(shape: VerbatimMessages['shape']): VerbatimMessages;
}

/**
 * A content attribute: a named message list source (genAiMessages,
 * chatMessages) may carry its string value as `text` instead, its `value`
 * then unread.
 */
export interface ContentAttribute extends KeyValue {
  text?: Utf8Text;
}

/**
 * The content of a span from its content attributes (in order), its
 * deprecated GenAI message events and the values of its capture markers
 * (the first of each name): undefined when none of it holds anything to
 * show (a message event without a body, an empty `gen_ai.choice`, is taken
 * off the span but keeps no content row). What splitContent reads; the
 * fused decoder calls it with the same parts of the span.
 */
export function readContent(
  attrs: readonly ContentAttribute[],
  messageEvents: readonly OtlpEvent[],
  capture: AnyValue | undefined,
  redactions: AnyValue | undefined,
): SplitSpan['content'] {
  const input: ContentHalf = {};
  const output: ContentHalf = {};
  const half = (side: ContentSide): ContentHalf => (side === 'input' ? input : output);
  // named attributes, in the table's precedence order
  const named = attrs
    .map((kv) => ({ kv, source: SOURCE_BY_ATTRIBUTE.get(kv.key) }))
    .filter((x) => x.source !== undefined)
    .sort((a, b) => (a.source?.rank ?? 0) - (b.source?.rank ?? 0));
  // most spans carry named attributes only: no flattened message to look for
  const flat = attrs.some((kv) => FLAT_PREFIXES.some((prefix) => kv.key.startsWith(prefix)))
    ? CONTENT_FLAT_MESSAGE_SOURCES.map((source) => ({
        source,
        messages: flatMessages(attrs, source.prefix, source.roleField, source.contentField),
      }))
    : [];
  const count = (side: ContentSide): number =>
    named.filter((x) => x.source?.side === side).length +
    flat.filter((x) => x.source.side === side && x.messages.length > 0).length +
    messageEvents.filter((e) => CONTENT_MESSAGE_EVENTS[e.name]?.side === side && eventBody(e) !== undefined).length;
  const counted: Partial<Record<ContentSide, number>> = {};
  const sources = (side: ContentSide): number => (counted[side] ??= count(side));
  for (const { kv, source } of named) {
    if (source === undefined) continue;
    const v = kv.value;
    const text = kv.text;
    if (
      (source.shape === 'genAiMessages' || source.shape === 'chatMessages') &&
      (text !== undefined ? text.lengthAtLeast(VERBATIM_FROM) : typeof v === 'string' && v.length >= VERBATIM_FROM) &&
      sources(source.side) === 1
    )
      half(source.side).verbatim =
        text !== undefined ? text.verbatim(source.shape) : { shape: source.shape, json: v as string };
    else readShape(half(source.side), source.shape, text !== undefined ? text.string() : v);
  }
  for (const { source, messages } of flat) {
    if (messages.length > 0 && half(source.side).messages === undefined) half(source.side).messages = messages;
  }
  readMessageEvents(messageEvents, input, output);
  return hasContent(input) || hasContent(output)
    ? {
        input,
        output,
        capture: typeof capture === 'string' ? capture : '',
        redactions: typeof redactions === 'bigint' || typeof redactions === 'number' ? Number(redactions) : 0,
      }
    : undefined;
}

/** Whether a half holds anything to show: text, tool arguments or results, or a message with content. */
function hasContent(half: ContentHalf): boolean {
  return (
    half.verbatim !== undefined ||
    (half.text !== undefined && half.text !== '') ||
    half.toolArguments !== undefined ||
    half.toolResult !== undefined ||
    (half.messages?.some((m) => m.content !== '') ?? false)
  );
}

function isCaptureMarker(key: string): boolean {
  return key === TelltaleAttr.contentCapture || key === TelltaleAttr.contentRedactions;
}

/** An attribute value as text: strings as they are, anything else as JSON. */
export function textOf(v: AnyValue): string {
  if (typeof v === 'string') return v;
  return JSON.stringify(plain(v)) ?? '';
}

function plain(v: AnyValue): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
  if (Array.isArray(v)) return v.map(plain);
  if (v !== null && typeof v === 'object') return Object.fromEntries(v.kvlist.map((kv) => [kv.key, plain(kv.value)]));
  return v;
}

function readShape(half: ContentHalf, shape: ContentShape, value: AnyValue): void {
  const text = textOf(value);
  switch (shape) {
    case 'toolArguments':
      half.toolArguments ??= text;
      return;
    case 'toolResult':
      half.toolResult ??= text;
      return;
    case 'text':
      half.text ??= text;
      return;
    case 'genAiSystemInstructions': {
      const parts = parseJson(text);
      addMessages(half, [{ role: 'system', content: Array.isArray(parts) ? partsText(parts) : text }], true);
      return;
    }
    case 'genAiMessages':
    case 'chatMessages':
      addMessagesJson(half, text);
      return;
    case 'vercelPrompt': {
      const prompt = parseJson(text) as { system?: unknown; prompt?: unknown; messages?: unknown } | undefined;
      if (prompt === undefined || prompt === null || typeof prompt !== 'object') {
        half.text ??= text;
        return;
      }
      const messages: ContentMessage[] = [];
      if (typeof prompt.system === 'string') messages.push({ role: 'system', content: prompt.system });
      if (Array.isArray(prompt.messages)) messages.push(...prompt.messages.map(messageOf));
      if (typeof prompt.prompt === 'string') messages.push({ role: 'user', content: prompt.prompt });
      addMessages(half, messages, false);
      return;
    }
  }
}

/**
 * `{prefix}{i}.{roleField}` / `{prefix}{i}.{contentField}` attributes as
 * messages, in index order. A message's other fields (the tool calls a model
 * made, its finish reason: `…message.tool_calls.0.tool_call.function.name`,
 * `gen_ai.completion.0.tool_calls.0.arguments`) follow its text as JSON, so
 * what was called, and with what, is kept.
 */
function flatMessages(
  attrs: readonly KeyValue[],
  prefix: string,
  roleField: string,
  contentField: string,
): ContentMessage[] {
  // the fields of a message share the role's prefix (`message.` for OpenInference)
  const fieldPrefix = roleField.slice(0, roleField.lastIndexOf('.') + 1);
  const byIndex = new Map<number, { message: ContentMessage; extra: [string, AnyValue][] }>();
  for (const kv of attrs) {
    if (!kv.key.startsWith(prefix)) continue;
    const rest = kv.key.slice(prefix.length);
    const dot = rest.indexOf('.');
    const index = Number(rest.slice(0, dot));
    if (dot <= 0 || !Number.isInteger(index)) continue;
    const field = rest.slice(dot + 1);
    let m = byIndex.get(index);
    if (m === undefined) byIndex.set(index, (m = { message: { role: 'unknown', content: '' }, extra: [] }));
    if (field === roleField) m.message.role = textOf(kv.value);
    else if (field === contentField) m.message.content = textOf(kv.value);
    else if (field.startsWith(fieldPrefix)) m.extra.push([field.slice(fieldPrefix.length), kv.value]);
  }
  return [...byIndex.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([, { message, extra }]) => {
      if (extra.length === 0) return message;
      const fields = JSON.stringify(nested(extra));
      return { role: message.role, content: message.content === '' ? fields : `${message.content}\n${fields}` };
    });
}

/** Dotted paths and their values as one object; a level whose keys are 0, 1, 2… is a list. */
function nested(entries: readonly [string, AnyValue][]): unknown {
  const root: Record<string, unknown> = {};
  for (const [path, value] of entries.slice().sort((a, b) => a[0].localeCompare(b[0], 'en', { numeric: true }))) {
    const keys = path.split('.');
    let at = root;
    for (const key of keys.slice(0, -1)) {
      const next = at[key];
      at = (at[key] = next !== null && typeof next === 'object' ? next : {}) as Record<string, unknown>;
    }
    at[keys.at(-1)!] = plain(value);
  }
  const lists = (v: unknown): unknown => {
    if (v === null || typeof v !== 'object') return v;
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o);
    const values = keys.map((k) => lists(o[k]));
    return keys.every((k, i) => k === String(i)) ? values : Object.fromEntries(keys.map((k, i) => [k, values[i]]));
  };
  return lists(root);
}

/** A message event's body (its first body attribute, as text), or undefined when it has none. */
function eventBody(event: OtlpEvent): string | undefined {
  for (const key of CONTENT_EVENT_BODY_KEYS) {
    const v = event.attributes.find((kv) => kv.key === key)?.value;
    if (v !== undefined && v !== null) return textOf(v);
  }
  return undefined;
}

/**
 * The message events' bodies as messages, in order. An event without a body
 * (a `gen_ai.choice` recorded with content capture off) adds none: it says a
 * message happened, not what it was.
 */
function readMessageEvents(events: readonly OtlpEvent[], input: ContentHalf, output: ContentHalf): void {
  for (const event of events) {
    const rule = CONTENT_MESSAGE_EVENTS[event.name];
    if (rule === undefined) continue;
    const body = eventBody(event);
    if (body === undefined) continue;
    const parsed = parseJson(body);
    let message: ContentMessage;
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
      const o = parsed as Record<string, unknown>;
      const inner = (o.message ?? o) as Record<string, unknown>;
      message = messageOf({ role: inner.role ?? rule.role, content: inner.content ?? inner.parts ?? '' });
    } else message = { role: rule.role, content: body };
    const half = rule.side === 'input' ? input : output;
    (half.messages ??= []).push(message);
  }
}
