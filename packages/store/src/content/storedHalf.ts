import { addMessagesJson, parseJson } from './contentMessages.js';
import type { ContentHalf } from './SpanContentRecord.js';

/**
 * A half with a verbatim message list is stored as `RS eager-JSON RS shape RS json`
 * (RS = U+001E, which JSON text never holds unescaped, and which no stored
 * JSON object starts with), so the received JSON is written as it is: no
 * escaping, no parse. Every other half is stored as its JSON object.
 */
const RS = '\u001e';
const ONLY_GEN_AI = `${RS}{}${RS}genAiMessages${RS}`;
const ONLY_CHAT = `${RS}{}${RS}chatMessages${RS}`;

/** The `input` / `output` column text of a half. */
export function storedHalfText(half: ContentHalf): string {
  return storedHalfParts(half)
    .map((p) => (typeof p === 'string' ? p : Buffer.from(p.buffer, p.byteOffset, p.byteLength).toString('utf8')))
    .join('');
}

/**
 * The column text of a half in parts to write one after another (the
 * verbatim JSON is never copied into a new string; its UTF-8 bytes, when
 * the half has them, are the part).
 */
export function storedHalfParts(half: ContentHalf): (string | Uint8Array)[] {
  const verbatim = half.verbatim;
  if (verbatim === undefined) return [JSON.stringify(half)];
  const json = verbatim.utf8 ?? verbatim.json;
  // the common half: the list alone
  if (
    half.messages === undefined &&
    half.toolArguments === undefined &&
    half.toolResult === undefined &&
    half.text === undefined
  )
    return [verbatim.shape === 'genAiMessages' ? ONLY_GEN_AI : ONLY_CHAT, json];
  const { verbatim: _, ...eager } = half;
  return [`${RS}${JSON.stringify(eager)}${RS}${verbatim.shape}${RS}`, json];
}

/** A stored half read back: the JSON object, with a verbatim message list turned into messages. */
export function readStoredHalf(text: string): ContentHalf {
  return readStoredHalfSized(text).half;
}

/**
 * A stored half read back, and how many more UTF-8 bytes it shows than the
 * collector counted for it (`original_bytes` counts a verbatim list's JSON;
 * its messages' strings are what the content is measured by): 0 for a half
 * stored as its JSON object.
 */
export function readStoredHalfSized(text: string): { half: ContentHalf; extraBytes: number } {
  if (!text.startsWith(RS)) return { half: asHalf(parseJson(text)), extraBytes: 0 };
  const eagerEnd = text.indexOf(RS, 1);
  const shapeEnd = eagerEnd < 0 ? -1 : text.indexOf(RS, eagerEnd + 1);
  if (shapeEnd < 0) return { half: {}, extraBytes: 0 };
  const half = asHalf(parseJson(text.slice(1, eagerEnd)));
  const counted = halfBytes(half) + Buffer.byteLength(text.slice(shapeEnd + 1), 'utf8');
  addMessagesJson(half, text.slice(shapeEnd + 1));
  return { half, extraBytes: halfBytes(half) - counted };
}

function asHalf(value: unknown): ContentHalf {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {};
}

/** UTF-8 bytes of every string a half shows (roles and contents of its messages, and its texts). */
export function halfBytes(half: ContentHalf): number {
  let n = 0;
  for (const m of half.messages ?? []) n += Buffer.byteLength(m.role, 'utf8') + Buffer.byteLength(m.content, 'utf8');
  for (const s of [half.toolArguments, half.toolResult, half.text])
    if (s !== undefined) n += Buffer.byteLength(s, 'utf8');
  return n;
}
