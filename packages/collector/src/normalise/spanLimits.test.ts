import { describe, expect, it } from 'vitest';
import type { KeyValue, OtlpSpan, OtlpTraceRequest } from '../otlp/types.js';
import { normaliseRequest } from './normaliseRequest.js';
import { DEFAULT_SPAN_LIMITS, emptyLimitCounts, limitSpan, type SpanLimits } from './spanLimits.js';

const NOW_MS = Date.UTC(2026, 10, 23, 12);
const NOW_NS = BigInt(NOW_MS) * 1_000_000n;

function span(overrides: Partial<OtlpSpan> = {}): OtlpSpan {
  return {
    traceId: '5b8efff798038103d269b633813fc60c',
    spanId: 'eee19b7ec3c1b174',
    traceState: '',
    parentSpanId: '',
    flags: 0,
    name: 'step',
    kind: 1,
    startTimeUnixNano: NOW_NS,
    endTimeUnixNano: NOW_NS + 1_000n,
    attributes: [],
    droppedAttributesCount: 0,
    events: [],
    droppedEventsCount: 0,
    links: [],
    droppedLinksCount: 0,
    status: { code: 0, message: '' },
    ...overrides,
  };
}

function request(spans: OtlpSpan[], resourceAttributes: KeyValue[] = []): OtlpTraceRequest {
  return {
    resourceSpans: [
      {
        resource: {
          attributes: [{ key: 'service.name', value: 'svc' }, ...resourceAttributes],
          droppedAttributesCount: 0,
        },
        scopeSpans: [
          { scope: { name: 's', version: '', attributes: [], droppedAttributesCount: 0 }, spans, schemaUrl: '' },
        ],
        schemaUrl: '',
      },
    ],
  };
}

const manyAttributes = (n: number): KeyValue[] => Array.from({ length: n }, (_, i) => ({ key: `k${i}`, value: i }));

describe('span limits', () => {
  it('keeps a span within the limits as it is (the same object)', () => {
    const s = span({
      attributes: manyAttributes(10),
      events: [{ timeUnixNano: NOW_NS, name: 'e', attributes: [], droppedAttributesCount: 0 }],
    });
    const counts = emptyLimitCounts();
    expect(limitSpan(s, DEFAULT_SPAN_LIMITS, counts)).toBe(s);
    expect(counts).toEqual(emptyLimitCounts());
  });

  it('drops attributes over the cap and adds them to the span’s dropped count and the warning', () => {
    const { spans, rejectedSpans, errors } = normaliseRequest(
      request([span({ attributes: manyAttributes(10_000), droppedAttributesCount: 3 })]),
      'p',
      { nowMs: NOW_MS },
    );
    expect(rejectedSpans).toBe(0);
    expect(spans[0]!.attributes).toHaveLength(DEFAULT_SPAN_LIMITS.maxAttributes);
    expect(spans[0]!.attributes.at(-1)).toEqual({
      key: `k${DEFAULT_SPAN_LIMITS.maxAttributes - 1}`,
      value: DEFAULT_SPAN_LIMITS.maxAttributes - 1,
    });
    expect(spans[0]!.droppedAttributesCount).toBe(3 + 10_000 - DEFAULT_SPAN_LIMITS.maxAttributes);
    expect(errors).toEqual([
      `${10_000 - DEFAULT_SPAN_LIMITS.maxAttributes} attributes dropped over 256 per span, event, link or resource`,
    ]);
  });

  it('cuts long strings and bytes, inside arrays and kvlists too, never inside a character', () => {
    const big = '€'.repeat(2_000_000); // 6 MB of 3-byte characters
    const s = span({
      attributes: [
        { key: 'text', value: big },
        { key: 'bytes', value: new Uint8Array(100_000) },
        { key: 'list', value: ['short', 'x'.repeat(40_000)] },
        { key: 'map', value: { kvlist: [{ key: 'inner', value: 'y'.repeat(50_000) }] } },
        { key: 'ok', value: 'fine' },
      ],
    });
    const { spans, errors } = normaliseRequest(request([s]), 'p', { nowMs: NOW_MS });
    const attrs = new Map(spans[0]!.attributes.map((kv) => [kv.key, kv.value]));
    const text = attrs.get('text') as string;
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(DEFAULT_SPAN_LIMITS.maxValueBytes);
    expect(Buffer.byteLength(text)).toBeGreaterThan(DEFAULT_SPAN_LIMITS.maxValueBytes - 3);
    expect(text).toBe('€'.repeat(text.length)); // whole characters only
    expect((attrs.get('bytes') as Uint8Array).length).toBe(DEFAULT_SPAN_LIMITS.maxValueBytes);
    expect((attrs.get('list') as string[]).map((x) => x.length)).toEqual([5, DEFAULT_SPAN_LIMITS.maxValueBytes]);
    expect(((attrs.get('map') as { kvlist: KeyValue[] }).kvlist[0]!.value as string).length).toBe(
      DEFAULT_SPAN_LIMITS.maxValueBytes,
    );
    expect(attrs.get('ok')).toBe('fine');
    expect(errors).toEqual([`4 attribute values cut to ${DEFAULT_SPAN_LIMITS.maxValueBytes} bytes`]);
  });

  it('drops events and links over their caps, and limits their attributes', () => {
    const limits: SpanLimits = { ...DEFAULT_SPAN_LIMITS, maxEvents: 2, maxLinks: 1, maxAttributes: 3 };
    const event = { timeUnixNano: NOW_NS, name: 'e', attributes: manyAttributes(5), droppedAttributesCount: 1 };
    const link = {
      traceId: '5b8efff798038103d269b633813fc60c',
      spanId: 'eee19b7ec3c1b175',
      traceState: '',
      attributes: [],
      droppedAttributesCount: 0,
      flags: 0,
    };
    const { spans, errors } = normaliseRequest(
      request([span({ events: [event, event, event, event], links: [link, link, link] })], manyAttributes(4)),
      'p',
      {
        nowMs: NOW_MS,
        limits,
      },
    );
    const s = spans[0]!;
    expect(s.events).toHaveLength(2);
    expect(s.droppedEventsCount).toBe(2);
    expect(s.events[0]!.attributes).toHaveLength(3);
    expect(limitSpan(span({ events: [event] }), limits, emptyLimitCounts()).events[0]!.droppedAttributesCount).toBe(
      1 + 2,
    );
    expect(s.links).toHaveLength(1);
    expect(s.droppedLinksCount).toBe(2);
    expect(s.resourceAttributes).toHaveLength(3); // service.name and the first two of four
    expect(errors[0]).toMatch(
      /^6 attributes dropped over 3 per span, event, link or resource; 2 events dropped over 2 per span; 2 links dropped over 1 per span$/,
    );
  });

  it('rejects, span by span, starts far in the past or future and spans over the per-request cap', () => {
    const ns = (iso: string): bigint => BigInt(Date.parse(iso)) * 1_000_000n;
    const old = span({
      spanId: '0000000000000001',
      startTimeUnixNano: ns('1970-01-01T00:00:01Z'),
      endTimeUnixNano: ns('1970-01-01T00:00:02Z'),
    });
    const future = span({
      spanId: '0000000000000002',
      startTimeUnixNano: ns('2100-01-01T00:00:00Z'),
      endTimeUnixNano: ns('2100-01-01T00:00:01Z'),
    });
    const skewed = span({
      spanId: '0000000000000003',
      startTimeUnixNano: NOW_NS + 30n * 60_000_000_000n,
      endTimeUnixNano: NOW_NS + 31n * 60_000_000_000n,
    });
    const good = span({ spanId: '0000000000000004' });
    const { spans, rejectedSpans, errors } = normaliseRequest(request([old, future, skewed, good]), 'p', {
      nowMs: NOW_MS,
    });
    expect(spans.map((s) => s.spanId)).toEqual(['0000000000000003', '0000000000000004']);
    expect(rejectedSpans).toBe(2);
    expect(errors).toEqual([
      'span 0000000000000001: start time 1970-01-01T00:00:01.000Z is more than 30 days in the past',
      'span 0000000000000002: start time 2100-01-01T00:00:00.000Z is more than 60 minutes in the future',
    ]);

    const capped = normaliseRequest(
      request([span({ spanId: '0000000000000005' }), good, span({ spanId: '0000000000000006' })]),
      'p',
      {
        nowMs: NOW_MS,
        limits: { ...DEFAULT_SPAN_LIMITS, maxSpansPerRequest: 2 },
      },
    );
    expect(capped.spans).toHaveLength(2);
    expect(capped.rejectedSpans).toBe(1);
    expect(capped.errors).toEqual(['span 0000000000000006: over the limit of 2 spans per request']);
  });
});

describe('normaliseRequest counts for operators (rejected by reason, what the limits cut)', () => {
  it('counts each rejected span under its reason and each cut under its kind', () => {
    const limits: SpanLimits = { ...DEFAULT_SPAN_LIMITS, maxSpansPerRequest: 4, maxValueBytes: 4, maxEvents: 1 };
    const event = { timeUnixNano: NOW_NS, name: 'e', attributes: [], droppedAttributesCount: 0 };
    const result = normaliseRequest(
      request([
        span({
          spanId: '0000000000000001',
          attributes: [{ key: 'long', value: 'abcdefgh' }],
          events: [event, event, event],
        }),
        span({ spanId: '0000000000000002', traceId: '0'.repeat(32) }),
        span({
          spanId: '0000000000000003',
          startTimeUnixNano: NOW_NS - 40n * 86_400_000_000_000n,
          endTimeUnixNano: NOW_NS,
        }),
        span({ spanId: '0000000000000004' }),
        span({ spanId: '0000000000000005' }),
        span({ spanId: '0000000000000006' }),
      ]),
      'p',
      { nowMs: NOW_MS, limits },
    );
    expect(result.spans).toHaveLength(2);
    expect(result.rejectedSpans).toBe(4);
    expect(result.rejectedBy).toEqual({ invalid: 1, outOfTimeRange: 1, overRequestLimit: 2 });
    expect(result.cut).toEqual({ truncatedValues: 1, droppedAttributes: 0, droppedEvents: 2, droppedLinks: 0 });
  });
});
