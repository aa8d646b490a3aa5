/**
 * Test fixture (not shipped API): seeded random ReadableSpans for round-trip
 * tests against the official @opentelemetry/otlp-transformer serializers, and
 * the OtlpTraceRequest each serialization must decode to.
 */
import { SpanKind } from '@opentelemetry/api';
import type { AttributeValue, Attributes, HrTime, Link, SpanContext } from '@opentelemetry/api';
import { TraceState } from '@opentelemetry/core';
import type { InstrumentationScope } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace-base';
import type { AnyValue, KeyValue, OtlpResourceSpans, OtlpScopeSpans, OtlpSpan, OtlpTraceRequest } from './types.js';

/** mulberry32: tiny, seedable, good enough to make failures reproducible. */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  hex(bytes: number): string {
    let s = '';
    for (let i = 0; i < bytes; i++) s += this.int(0, 255).toString(16).padStart(2, '0');
    return s;
  }
  bytes(max: number): Uint8Array {
    return Uint8Array.from({ length: this.int(0, max) }, () => this.int(0, 255));
  }
}

const WORDS = [
  'gen_ai.request.model',
  'llm.token_count.prompt',
  'http.method',
  'tool.name',
  'k',
  '',
  'ключ',
  '鍵',
  'emoji🚀',
  'a.b.c',
];
const UNICODE_POOL = [
  'é',
  'ß',
  '中文',
  '🚀',
  '👩‍💻',
  'ﬀ',
  '\u0000',
  '\u00a0',
  'e\u0301',
  '\ufeff',
  '\ud83d\ude00',
  'Ω',
  '\n',
  '"',
  '\\',
];
const INTS = [
  0,
  1,
  -1,
  127,
  128,
  -128,
  300,
  2 ** 31 - 1,
  -(2 ** 31),
  2 ** 32,
  2 ** 53 - 1,
  -(2 ** 53 - 1),
  2 ** 53 + 2,
  2 ** 60,
  -(2 ** 62),
  -(2 ** 63),
  2 ** 63 - 1024,
  -0,
];
const DOUBLES = [0.5, -0.1, 1.5e-300, 5e-324, 123456.789, -2.5e10, Math.PI, NaN, Infinity, -Infinity];

export function randomString(rng: Rng): string {
  const kind = rng.int(0, 199);
  if (kind < 10) return '';
  if (kind < 11) return 'x'.repeat(50_000) + '🚀'.repeat(12_500); // ~100 KB of UTF-8
  if (kind < 140) return rng.hex(rng.int(1, 12));
  let s = '';
  for (let i = rng.int(1, 8); i > 0; i--) s += rng.chance(0.5) ? rng.pick(UNICODE_POOL) : rng.hex(2);
  return s;
}

function randomScalar(rng: Rng): AttributeValue | Uint8Array | null | undefined {
  switch (rng.int(0, 9)) {
    case 0:
    case 1:
    case 2:
      return randomString(rng);
    case 3:
      return rng.chance(0.5);
    case 4:
      return rng.pick(INTS);
    case 5:
      return rng.int(-1e9, 1e9);
    case 6:
      return rng.chance(0.3) ? rng.pick(DOUBLES) : (rng.next() - 0.5) * 1e6;
    case 7:
      return rng.bytes(40);
    case 8:
      return rng.chance(0.5) ? null : undefined;
    default:
      return rng.int(0, 1) === 0 ? [randomString(rng), randomString(rng)] : [rng.int(-5, 5), null, 7];
  }
}

/** Any attribute value the serializers understand, including nested arrays/kvlists (beyond the API type). */
type RawValue = AttributeValue | Uint8Array | null | undefined | RawValue[] | { [key: string]: RawValue };

function randomValue(rng: Rng, depth: number): RawValue {
  if (depth < 3 && rng.chance(0.12)) {
    if (rng.chance(0.5)) return Array.from({ length: rng.int(0, 4) }, () => randomValue(rng, depth + 1));
    const obj: Record<string, RawValue> = {};
    for (let i = rng.int(0, 4); i > 0; i--) obj[`${rng.pick(WORDS)}${i}`] = randomValue(rng, depth + 1);
    return obj;
  }
  return randomScalar(rng);
}

export function randomAttributes(rng: Rng, max: number): Attributes {
  const attrs: Record<string, RawValue> = {};
  for (let i = rng.int(0, max); i > 0; i--) attrs[`${rng.pick(WORDS)}#${i}`] = randomValue(rng, 0);
  return attrs as Attributes;
}

function randomTime(rng: Rng): HrTime {
  if (rng.chance(0.02))
    return rng.pick<HrTime>([
      [0, 0],
      [18_446_744_073, 709_551_615],
      [4_294_967_296, 1],
    ]);
  return [rng.int(1_600_000_000, 1_900_000_000), rng.int(0, 999_999_999)];
}

function randomContext(rng: Rng): SpanContext {
  return {
    traceId: rng.hex(16),
    spanId: rng.hex(8),
    traceFlags: rng.int(0, 255),
    isRemote: rng.chance(0.5) ? rng.chance(0.5) : undefined,
    traceState: rng.chance(0.3) ? new TraceState(`vendor${rng.int(0, 9)}=v${rng.hex(2)},other=x`) : undefined,
  };
}

const KINDS = [SpanKind.INTERNAL, SpanKind.SERVER, SpanKind.CLIENT, SpanKind.PRODUCER, SpanKind.CONSUMER];

/** One request's worth of spans: several resources, each with several scopes. */
export function randomSpans(rng: Rng, maxSpans = 8): ReadableSpan[] {
  let scopeSerial = 0;
  const resources: Resource[] = Array.from({ length: rng.int(1, 3) }, () =>
    resourceFromAttributes(
      randomAttributes(rng, 4),
      rng.chance(0.5) ? { schemaUrl: `https://opentelemetry.io/schemas/1.${rng.int(0, 30)}.0` } : undefined,
    ),
  );
  const spans: ReadableSpan[] = [];
  for (const resource of resources) {
    for (let s = rng.int(1, 3); s > 0; s--) {
      const scopeAttrs = rng.chance(0.3) ? randomAttributes(rng, 3) : undefined;
      // Names are unique: the JSON serializer groups scopes by name/version/schemaUrl, the protobuf one by identity.
      const scope = {
        name: `scope-${scopeSerial++}-${rng.hex(2)}${rng.pick(UNICODE_POOL)}`,
        version: rng.chance(0.5) ? `1.${rng.int(0, 9)}.0` : undefined,
        schemaUrl: rng.chance(0.3) ? 'https://opentelemetry.io/schemas/1.26.0' : undefined,
        attributes: scopeAttrs,
        droppedAttributesCount: scopeAttrs && Object.keys(scopeAttrs).length > 0 ? rng.int(0, 3) : undefined,
      } as InstrumentationScope;
      for (let n = rng.int(0, maxSpans); n > 0; n--) spans.push(randomSpan(rng, resource, scope));
    }
  }
  return spans;
}

function randomSpan(rng: Rng, resource: Resource, instrumentationScope: InstrumentationScope): ReadableSpan {
  const ctx = randomContext(rng);
  const parentSpanContext = rng.chance(0.7) ? { ...randomContext(rng), traceId: ctx.traceId } : undefined;
  const events: TimedEvent[] = Array.from({ length: rng.int(0, 3) }, () => ({
    time: randomTime(rng),
    name: randomString(rng),
    attributes: rng.chance(0.7) ? randomAttributes(rng, 3) : undefined,
    droppedAttributesCount: rng.chance(0.3) ? rng.int(0, 5) : undefined,
  }));
  const links: Link[] = Array.from({ length: rng.int(0, 2) }, () => ({
    context: randomContext(rng),
    attributes: rng.chance(0.7) ? randomAttributes(rng, 3) : undefined,
    droppedAttributesCount: rng.chance(0.3) ? rng.int(0, 5) : undefined,
  }));
  return {
    name: randomString(rng),
    // An absent kind (JS callers can omit it) serializes as SPAN_KIND_UNSPECIFIED.
    kind: rng.chance(0.05) ? (undefined as unknown as SpanKind) : rng.pick(KINDS),
    spanContext: () => ctx,
    parentSpanContext,
    startTime: randomTime(rng),
    endTime: randomTime(rng),
    status: { code: rng.int(0, 2), message: rng.chance(0.4) ? randomString(rng) : undefined },
    attributes: randomAttributes(rng, 15),
    links,
    events,
    duration: [0, 0],
    ended: true,
    resource,
    instrumentationScope,
    droppedAttributesCount: rng.chance(0.2) ? rng.int(0, 2 ** 32 - 1) : 0,
    droppedEventsCount: rng.chance(0.2) ? rng.int(0, 100) : 0,
    droppedLinksCount: rng.chance(0.2) ? rng.int(0, 100) : 0,
  };
}

// ---------------------------------------------------------------------------
// Expected decode results, derived from the spans themselves.

export type Format = 'proto' | 'json';

const INT64_MIN = -(2 ** 63);
const INT64_END = 2 ** 63;

export function expectedAnyValue(v: unknown, format: Format): AnyValue {
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') {
    // Integers in int64 range are int_value; everything else double_value.
    if (Number.isInteger(v) && v >= INT64_MIN && v < INT64_END) return BigInt(v);
    // JSON.stringify turns NaN/±Infinity into null, i.e. an unset value.
    if (format === 'json' && !Number.isFinite(v)) return null;
    return v;
  }
  if (v instanceof Uint8Array) return v;
  if (Array.isArray(v)) return v.map((item) => expectedAnyValue(item, format));
  if (typeof v === 'object' && v !== null) return { kvlist: expectedAttributes(v as Record<string, unknown>, format) };
  return null;
}

export function expectedAttributes(attrs: Record<string, unknown> | undefined, format: Format): KeyValue[] {
  if (attrs === undefined) return [];
  return Object.keys(attrs).map((key) => ({ key, value: expectedAnyValue(attrs[key], format) }));
}

const hrNanos = (t: HrTime): bigint => BigInt(t[0]) * 1_000_000_000n + BigInt(t[1]);
/** SpanFlags: low byte = W3C trace flags, 0x100 = "has is_remote", 0x200 = is_remote. */
const spanFlags = (traceFlags: number, isRemote: boolean | undefined): number =>
  (traceFlags & 0xff) | 0x100 | (isRemote ? 0x200 : 0);

function expectedSpan(span: ReadableSpan, format: Format): OtlpSpan {
  const ctx = span.spanContext();
  return {
    traceId: ctx.traceId,
    spanId: ctx.spanId,
    traceState: ctx.traceState?.serialize() ?? '',
    parentSpanId: span.parentSpanContext?.spanId ?? '',
    flags: spanFlags(ctx.traceFlags, span.parentSpanContext?.isRemote),
    name: span.name,
    kind: (span.kind as SpanKind | undefined) === undefined ? 0 : span.kind + 1, // API enum is OTLP's minus one
    startTimeUnixNano: hrNanos(span.startTime),
    endTimeUnixNano: hrNanos(span.endTime),
    attributes: expectedAttributes(span.attributes, format),
    droppedAttributesCount: span.droppedAttributesCount,
    events: span.events.map((e) => ({
      timeUnixNano: hrNanos(e.time),
      name: e.name,
      attributes: expectedAttributes(e.attributes, format),
      droppedAttributesCount: e.droppedAttributesCount ?? 0,
    })),
    droppedEventsCount: span.droppedEventsCount,
    links: span.links.map((l) => ({
      traceId: l.context.traceId,
      spanId: l.context.spanId,
      traceState: l.context.traceState?.serialize() ?? '',
      attributes: expectedAttributes(l.attributes, format),
      droppedAttributesCount: l.droppedAttributesCount ?? 0,
      flags: spanFlags(l.context.traceFlags, l.context.isRemote),
    })),
    droppedLinksCount: span.droppedLinksCount,
    status: { code: span.status.code, message: span.status.message ?? '' },
  };
}

interface ScopeWithAttributes extends InstrumentationScope {
  attributes?: Attributes;
  droppedAttributesCount?: number;
}

/** What decoding the serialization of `spans` must produce: grouped by resource, then scope, in first-seen order. */
export function expectedFromReadableSpans(spans: readonly ReadableSpan[], format: Format): OtlpTraceRequest {
  const byResource = new Map<Resource, Map<InstrumentationScope, ReadableSpan[]>>();
  for (const span of spans) {
    let byScope = byResource.get(span.resource);
    if (!byScope) byResource.set(span.resource, (byScope = new Map<InstrumentationScope, ReadableSpan[]>()));
    let list = byScope.get(span.instrumentationScope);
    if (!list) byScope.set(span.instrumentationScope, (list = []));
    list.push(span);
  }
  const resourceSpans: OtlpResourceSpans[] = [];
  for (const [resource, byScope] of byResource) {
    const scopeSpans: OtlpScopeSpans[] = [];
    for (const [scope, list] of byScope) {
      const s = scope as ScopeWithAttributes;
      scopeSpans.push({
        scope: {
          name: s.name,
          version: s.version ?? '',
          attributes: expectedAttributes(s.attributes, format),
          droppedAttributesCount: s.droppedAttributesCount ?? 0,
        },
        spans: list.map((span) => expectedSpan(span, format)),
        schemaUrl: s.schemaUrl ?? '',
      });
    }
    resourceSpans.push({
      resource: { attributes: expectedAttributes(resource.attributes, format), droppedAttributesCount: 0 },
      scopeSpans,
      schemaUrl: resource.schemaUrl ?? '',
    });
  }
  return { resourceSpans };
}
