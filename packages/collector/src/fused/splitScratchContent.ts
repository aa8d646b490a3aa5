import { CONTENT_ATTRIBUTE_SOURCES, CONTENT_MESSAGE_EVENTS, TelltaleAttr } from '@telltale/semconv';
import type { AnyValue, OtlpEvent } from '../otlp/types.js';
import type { ProtoReader } from '../otlp/protoReader.js';
import { readContent, type ContentAttribute } from '../normalise/extractContent.js';
import type { SplitContent } from '../normalise/normaliseRequest.js';
import type { KeyInfo } from './keyInfo.js';
import type { SpanScratch } from './SpanScratch.js';
import { BodyUtf8 } from './BodyUtf8.js';
import { scratchValue } from './writeAttributes.js';
import { validUtf8 } from './validUtf8.js';
import { ValueKind } from './valueKind.js';

/** The named sources whose string may be kept verbatim: left as body bytes until read. */
const MESSAGE_LISTS = new Set(
  CONTENT_ATTRIBUTE_SOURCES.filter((s) => s.shape === 'genAiMessages' || s.shape === 'chatMessages').map(
    (s) => s.attribute,
  ),
);

/** What splitScratchContent took off a span. */
export interface ScratchContent {
  /** The span's content, undefined when it holds nothing to show. */
  content: SplitContent | undefined;
  /** How many content attributes now follow the span's other attributes in the scratch (slots `attributes`…). */
  contentAttributes: number;
}

/**
 * splitContent on the span in the scratch: its content attributes and capture
 * markers leave the attribute list (the content attributes are kept, in order,
 * in the slots after it, where the canonical fields still read them), its
 * message events leave the event list, and the content is read from them
 * with the object path's own reader (readContent). A message list's string
 * is handed over as its body bytes: kept verbatim, it is never decoded.
 * What is left of the span is a span without content, which the fused path
 * writes as it writes any.
 */
export function splitScratchContent(r: ProtoReader, s: SpanScratch): ScratchContent {
  const attrs: ContentAttribute[] = [];
  const infos: KeyInfo[] = [];
  const keyStarts: number[] = [];
  const keyLens: number[] = [];
  const kinds: number[] = [];
  const starts: number[] = [];
  const lens: number[] = [];
  const nums: number[] = [];
  const objs: (AnyValue | undefined)[] = [];
  let capture: AnyValue | undefined;
  let redactions: AnyValue | undefined;
  let n = 0;
  for (let i = 0; i < s.attributes; i++) {
    const info = s.infos[i]!;
    const key = info.key;
    if (info.content) {
      if (MESSAGE_LISTS.has(key) && s.kinds[i] === ValueKind.string && validUtf8(r.buf, s.starts[i]!, s.lens[i]!))
        attrs.push({ key, value: '', text: new BodyUtf8(r, s.starts[i]!, s.lens[i]!) });
      else attrs.push({ key, value: scratchValue(r, s, i) });
      infos.push(info);
      keyStarts.push(s.keyStarts[i]!);
      keyLens.push(s.keyLens[i]!);
      kinds.push(s.kinds[i]!);
      starts.push(s.starts[i]!);
      lens.push(s.lens[i]!);
      nums.push(s.nums[i]!);
      objs.push(s.objs[i]);
      continue;
    }
    if (key === TelltaleAttr.contentCapture) {
      capture ??= scratchValue(r, s, i);
      continue;
    }
    if (key === TelltaleAttr.contentRedactions) {
      redactions ??= scratchValue(r, s, i);
      continue;
    }
    if (n !== i) s.moveAttribute(n, i);
    n++;
  }
  for (let j = 0; j < attrs.length; j++) {
    const at = n + j;
    s.infos[at] = infos[j]!;
    s.keyStarts[at] = keyStarts[j]!;
    s.keyLens[at] = keyLens[j]!;
    s.kinds[at] = kinds[j]!;
    s.starts[at] = starts[j]!;
    s.lens[at] = lens[j]!;
    s.nums[at] = nums[j]!;
    s.objs[at] = objs[j];
  }
  s.attributes = n;
  const messageEvents: OtlpEvent[] = [];
  let kept = 0;
  for (const e of s.events) {
    if (CONTENT_MESSAGE_EVENTS[e.name] === undefined) s.events[kept++] = e;
    else messageEvents.push(e);
  }
  s.events.length = kept;
  return { content: readContent(attrs, messageEvents, capture, redactions), contentAttributes: attrs.length };
}
