import type { AnyValue, KeyValue, OtlpSpan } from '../otlp/types.js';

/**
 * What one span (and one request) may carry. Hostile or runaway
 * instrumentation must not be able to blow up a row, the memory of a batch,
 * or the number of daily partitions one insert touches.
 */
export interface SpanLimits {
  /** Attributes kept per span, event, link and resource; the rest are dropped and counted in `droppedAttributesCount`. */
  maxAttributes: number;
  /** UTF-8 bytes kept of a string or bytes value (each element of arrays and kvlists too); longer ones are cut. */
  maxValueBytes: number;
  /** Events kept per span; the rest are dropped and counted in `droppedEventsCount`. */
  maxEvents: number;
  /** Links kept per span; the rest are dropped and counted in `droppedLinksCount`. */
  maxLinks: number;
  /** Spans accepted per request; the rest are rejected (partial_success). */
  maxSpansPerRequest: number;
  /** A span that starts longer ago than this is rejected (it would be past retention). */
  maxAgeMs: number;
  /** A span that starts further in the future than this is rejected (clock skew allowance). */
  maxFutureMs: number;
  /** UTF-8 bytes of content (prompts, messages, tool arguments and results) kept per span; more is cut and counted. */
  maxContentBytes: number;
}

const DAY_MS = 86_400_000;

export const DEFAULT_SPAN_LIMITS: Readonly<SpanLimits> = Object.freeze({
  maxAttributes: 256,
  maxValueBytes: 32 * 1024,
  maxEvents: 256,
  maxLinks: 128,
  maxSpansPerRequest: 50_000,
  maxAgeMs: 30 * DAY_MS,
  maxFutureMs: 60 * 60_000,
  maxContentBytes: 1024 * 1024,
});

/** What the limits cut from the spans of one request. */
export interface LimitCounts {
  droppedAttributes: number;
  truncatedValues: number;
  droppedEvents: number;
  droppedLinks: number;
}

export function emptyLimitCounts(): LimitCounts {
  return { droppedAttributes: 0, truncatedValues: 0, droppedEvents: 0, droppedLinks: 0 };
}

const NS_PER_MS = 1_000_000n;

/** Why a span's start time is refused under `limits` at `nowMs`, or undefined. */
export function timeRangeReason(
  span: Pick<OtlpSpan, 'startTimeUnixNano'>,
  limits: SpanLimits,
  nowMs: number,
): string | undefined {
  const startMs = Number(span.startTimeUnixNano / NS_PER_MS);
  if (startMs < nowMs - limits.maxAgeMs)
    return `start time ${isoOrRaw(span.startTimeUnixNano)} is more than ${Math.round(limits.maxAgeMs / DAY_MS)} days in the past`;
  if (startMs > nowMs + limits.maxFutureMs)
    return `start time ${isoOrRaw(span.startTimeUnixNano)} is more than ${Math.round(limits.maxFutureMs / 60_000)} minutes in the future`;
  return undefined;
}

function isoOrRaw(ns: bigint): string {
  const ms = Number(ns / NS_PER_MS);
  return Number.isFinite(ms) && Math.abs(ms) < 8.64e15 ? new Date(ms).toISOString() : `${ns} ns`;
}

/** `s` cut to at most `maxBytes` UTF-8 bytes, never inside a character. */
export function truncateString(s: string, maxBytes: number): string {
  // a UTF-16 unit is at most 3 UTF-8 bytes: short strings need no measuring
  if (s.length * 3 <= maxBytes) return s;
  const bytes = Buffer.from(s, 'utf8');
  if (bytes.length <= maxBytes) return s;
  let end = maxBytes;
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--; // do not split a multi-byte sequence
  return bytes.subarray(0, end).toString('utf8');
}

/** Applies the attribute limits to one attribute list, counting into `counts`. */
export function limitAttributes(
  attrs: KeyValue[],
  limits: SpanLimits,
  counts: LimitCounts,
): { attributes: KeyValue[]; dropped: number } {
  const dropped = Math.max(0, attrs.length - limits.maxAttributes);
  const kept = dropped === 0 ? attrs : attrs.slice(0, limits.maxAttributes);
  counts.droppedAttributes += dropped;
  const attributes = mapSame(kept, (kv) => {
    const value = limitValue(kv.value, limits, counts);
    return value === kv.value ? kv : { key: kv.key, value };
  });
  return { attributes, dropped };
}

/** One value within the limits (the same value when nothing had to change), counting what was cut. */
export function limitValue(v: AnyValue, limits: SpanLimits, counts: LimitCounts): AnyValue {
  if (typeof v === 'string') {
    const cut = truncateString(v, limits.maxValueBytes);
    if (cut !== v) counts.truncatedValues++;
    return cut;
  }
  if (v instanceof Uint8Array) {
    if (v.length <= limits.maxValueBytes) return v;
    counts.truncatedValues++;
    return v.subarray(0, limits.maxValueBytes);
  }
  if (Array.isArray(v)) return mapSame(v, (x) => limitValue(x, limits, counts));
  if (v !== null && typeof v === 'object') {
    const { attributes } = limitAttributes(v.kvlist, limits, counts);
    return attributes === v.kvlist ? v : { kvlist: attributes };
  }
  return v;
}

/** Maps `items` with `f`, returning `items` itself when `f` changed none of them. */
function mapSame<T>(items: T[], f: (item: T) => T): T[] {
  // a new array only from the first item `f` changes (most lists need no change)
  let out: T[] | undefined;
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    const next = f(item);
    if (out !== undefined) out.push(next);
    else if (next !== item) {
      out = items.slice(0, i);
      out.push(next);
    }
  }
  return out ?? items;
}

/** The first `max` items, each with its attributes limited (events and links alike); the rest are counted by the caller. */
export function limitItems<T extends { attributes: KeyValue[]; droppedAttributesCount: number }>(
  items: T[],
  max: number,
  limits: SpanLimits,
  counts: LimitCounts,
): T[] {
  const kept = items.length > max ? items.slice(0, max) : items;
  return mapSame(kept, (item) => {
    const { attributes, dropped } = limitAttributes(item.attributes, limits, counts);
    return attributes === item.attributes
      ? item
      : { ...item, attributes, droppedAttributesCount: item.droppedAttributesCount + dropped };
  });
}

/** The span within `limits` (the same object when nothing had to change); what was cut is counted into `counts` and into the span's own dropped counts. */
export function limitSpan(span: OtlpSpan, limits: SpanLimits, counts: LimitCounts): OtlpSpan {
  const { attributes, dropped } = limitAttributes(span.attributes, limits, counts);
  const events = limitItems(span.events, limits.maxEvents, limits, counts);
  const links = limitItems(span.links, limits.maxLinks, limits, counts);
  counts.droppedEvents += span.events.length - events.length;
  counts.droppedLinks += span.links.length - links.length;
  if (attributes === span.attributes && events === span.events && links === span.links) return span;
  return {
    ...span,
    attributes,
    droppedAttributesCount: span.droppedAttributesCount + dropped,
    events,
    droppedEventsCount: span.droppedEventsCount + (span.events.length - events.length),
    links,
    droppedLinksCount: span.droppedLinksCount + (span.links.length - links.length),
  };
}

/** A warning for partial_success.error_message when limits cut anything (OTLP allows one with 0 rejected), else undefined. */
export function limitsWarning(counts: LimitCounts, limits: SpanLimits): string | undefined {
  const parts: string[] = [];
  if (counts.droppedAttributes > 0)
    parts.push(
      `${counts.droppedAttributes} attributes dropped over ${limits.maxAttributes} per span, event, link or resource`,
    );
  if (counts.truncatedValues > 0)
    parts.push(`${counts.truncatedValues} attribute values cut to ${limits.maxValueBytes} bytes`);
  if (counts.droppedEvents > 0) parts.push(`${counts.droppedEvents} events dropped over ${limits.maxEvents} per span`);
  if (counts.droppedLinks > 0) parts.push(`${counts.droppedLinks} links dropped over ${limits.maxLinks} per span`);
  return parts.length === 0 ? undefined : parts.join('; ');
}
