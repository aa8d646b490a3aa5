import type { ContentHalf, ContentMessage } from './SpanContentRecord.js';

/** JSON text as a value, or undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Text parts joined by newlines; other parts (tool calls, images…) as their JSON. */
export function partsText(parts: unknown[]): string {
  return parts
    .map((p) => {
      if (typeof p === 'string') return p;
      const o = (p ?? {}) as Record<string, unknown>;
      if (o.type === 'text' && typeof o.content === 'string') return o.content;
      if (o.type === 'text' && typeof o.text === 'string') return o.text;
      return JSON.stringify(p) ?? '';
    })
    .join('\n');
}

/** One message of any JSON shape: `{role, parts}` (GenAI), `{role, content: string | parts}` (chat). */
export function messageOf(m: unknown): ContentMessage {
  if (typeof m === 'string') return { role: 'user', content: m };
  if (m === null || typeof m !== 'object') return { role: 'unknown', content: JSON.stringify(m) ?? '' };
  const o = m as Record<string, unknown>;
  const role = typeof o.role === 'string' ? o.role : 'unknown';
  if (Array.isArray(o.parts)) return { role, content: partsText(o.parts) };
  if (typeof o.content === 'string') return { role, content: o.content };
  if (Array.isArray(o.content)) return { role, content: partsText(o.content) };
  return { role, content: JSON.stringify(o.content ?? o) ?? '' };
}

/**
 * A message list attribute (GenAI `{role, parts}` or chat `{role, content}`
 * messages, as JSON text) read into a half: its messages, or, when the text
 * is not a JSON array, the text itself. Adds messages only when the half has
 * none yet from a higher-ranked source (system instructions excepted).
 */
export function addMessagesJson(half: ContentHalf, text: string): void {
  const list = parseJson(text);
  if (Array.isArray(list)) addMessages(half, list.map(messageOf), false);
  else half.text ??= text;
}

/** Adds messages when the half has none yet from a higher-ranked source; system instructions go first. */
export function addMessages(half: ContentHalf, messages: ContentMessage[], isSystem: boolean): void {
  if (isSystem) half.messages = [...messages, ...(half.messages ?? [])];
  else if (half.messages === undefined || half.messages.every((m) => m.role === 'system'))
    half.messages = [...(half.messages ?? []), ...messages];
}
