import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { describe, expect, it } from 'vitest';
import { OtlpDecodeError } from './OtlpDecodeError.js';
import { decodeTraceRequestJson } from './jsonDecoder.js';
import { EXPECTED_COVERAGE, coverage } from './coverage.fixture.js';
import { Rng, expectedFromReadableSpans, randomSpans } from './randomSpans.fixture.js';
import type { AnyValue, OtlpSpan } from './types.js';

const TRACE_ID = '5b8efff798038103d269b633813fc60c';
const SPAN_ID = 'eee19b7ec3c1b174';

/** A request with one span built from `span` (JSON object fields). */
function body(span: Record<string, unknown>): string {
  return JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [span] }] }] });
}

function decodeSpan(span: Record<string, unknown>): OtlpSpan {
  return decodeTraceRequestJson(body(span)).resourceSpans[0]!.scopeSpans[0]!.spans[0]!;
}

function decodeValue(value: unknown): AnyValue {
  return decodeSpan({ attributes: [{ key: 'k', value }] }).attributes[0]!.value;
}

function decodeError(input: string | Uint8Array): OtlpDecodeError {
  try {
    decodeTraceRequestJson(input);
  } catch (err) {
    expect(err).toBeInstanceOf(OtlpDecodeError);
    return err as OtlpDecodeError;
  }
  throw new Error('expected decoding to fail');
}

describe('decodeTraceRequestJson round trip', () => {
  it('decodes 320 random requests from JsonTraceSerializer exactly (bytes and string bodies)', () => {
    const seen = new Set<string>();
    for (let seed = 1; seed <= 320; seed++) {
      const spans = randomSpans(new Rng(seed));
      const bytes = JsonTraceSerializer.serializeRequest(spans)!;
      const expected = expectedFromReadableSpans(spans, 'json');
      const decoded = decodeTraceRequestJson(bytes);
      expect(decoded, `seed ${seed}`).toEqual(expected);
      coverage(decoded, seen);
      if (seed % 10 === 0)
        expect(decodeTraceRequestJson(new TextDecoder().decode(bytes)), `seed ${seed}`).toEqual(expected);
    }
    // NaN and ±Infinity become null in JSON (JSON.stringify), so they are not expected here.
    expect([...seen].sort()).toEqual(expect.arrayContaining(EXPECTED_COVERAGE));
  });
});

describe('decodeTraceRequestJson field forms', () => {
  it('decodes a full span in canonical OTLP/JSON', () => {
    const span = decodeSpan({
      traceId: TRACE_ID.toUpperCase(),
      spanId: SPAN_ID,
      parentSpanId: '',
      traceState: 'a=b',
      flags: 769,
      name: 'chat',
      kind: 3,
      startTimeUnixNano: '1700000000123456789',
      endTimeUnixNano: '18446744073709551615',
      attributes: [{ key: 'n', value: { intValue: '-9223372036854775808' } }],
      droppedAttributesCount: 1,
      events: [{ timeUnixNano: '5', name: 'e', attributes: [], droppedAttributesCount: 2 }],
      droppedEventsCount: 3,
      links: [
        {
          traceId: TRACE_ID,
          spanId: SPAN_ID,
          traceState: 'x=y',
          attributes: [],
          droppedAttributesCount: 4,
          flags: 256,
        },
      ],
      droppedLinksCount: 5,
      status: { code: 2, message: 'boom' },
    });
    expect(span).toEqual({
      traceId: TRACE_ID,
      spanId: SPAN_ID,
      parentSpanId: '',
      traceState: 'a=b',
      flags: 769,
      name: 'chat',
      kind: 3,
      startTimeUnixNano: 1_700_000_000_123_456_789n,
      endTimeUnixNano: 2n ** 64n - 1n,
      attributes: [{ key: 'n', value: -(2n ** 63n) }],
      droppedAttributesCount: 1,
      events: [{ timeUnixNano: 5n, name: 'e', attributes: [], droppedAttributesCount: 2 }],
      droppedEventsCount: 3,
      links: [
        {
          traceId: TRACE_ID,
          spanId: SPAN_ID,
          traceState: 'x=y',
          attributes: [],
          droppedAttributesCount: 4,
          flags: 256,
        },
      ],
      droppedLinksCount: 5,
      status: { code: 2, message: 'boom' },
    });
  });

  it('accepts int64 and uint32 values as numbers or decimal strings', () => {
    const span = decodeSpan({
      startTimeUnixNano: 1_700_000_000_000,
      endTimeUnixNano: '42',
      droppedAttributesCount: '7',
      flags: '256',
    });
    expect([span.startTimeUnixNano, span.endTimeUnixNano, span.droppedAttributesCount, span.flags]).toEqual([
      1_700_000_000_000n,
      42n,
      7,
      256,
    ]);
    expect(decodeValue({ intValue: 42 })).toBe(42n);
    expect(decodeValue({ intValue: '9223372036854775807' })).toBe(2n ** 63n - 1n);
    expect(decodeValue({ intValue: -5 })).toBe(-5n);
  });

  it('accepts enum names', () => {
    const span = decodeSpan({ kind: 'SPAN_KIND_SERVER', status: { code: 'STATUS_CODE_ERROR' } });
    expect([span.kind, span.status.code]).toEqual([2, 2]);
    expect(decodeSpan({ kind: 'SPAN_KIND_CONSUMER', status: { code: 'STATUS_CODE_OK' } })).toMatchObject({
      kind: 5,
      status: { code: 1 },
    });
  });

  it('accepts the original snake_case field names', () => {
    const json = JSON.stringify({
      resource_spans: [
        {
          resource: {
            attributes: [{ key: 'service.name', value: { string_value: 'svc' } }],
            dropped_attributes_count: 1,
          },
          schema_url: 'r',
          scope_spans: [
            {
              scope: { name: 's', version: '1', dropped_attributes_count: 2 },
              schema_url: 'u',
              spans: [
                {
                  trace_id: TRACE_ID,
                  span_id: SPAN_ID,
                  parent_span_id: SPAN_ID,
                  trace_state: 't',
                  start_time_unix_nano: '1',
                  end_time_unix_nano: '2',
                  dropped_attributes_count: 3,
                  dropped_events_count: 4,
                  dropped_links_count: 5,
                  events: [{ time_unix_nano: '9', dropped_attributes_count: 6 }],
                  links: [{ trace_id: TRACE_ID, span_id: SPAN_ID, trace_state: 'l', dropped_attributes_count: 7 }],
                  attributes: [
                    { key: 'b', value: { bool_value: true } },
                    { key: 'i', value: { int_value: '3' } },
                    { key: 'd', value: { double_value: 1.5 } },
                    { key: 'y', value: { bytes_value: 'AAEC' } },
                    { key: 'a', value: { array_value: { values: [{ string_value: 'x' }] } } },
                    { key: 'm', value: { kvlist_value: { values: [{ key: 'z', value: { int_value: 1 } }] } } },
                  ],
                },
              ],
            },
          ],
        },
      ],
    });
    const rs = decodeTraceRequestJson(json).resourceSpans[0]!;
    expect(rs.resource).toEqual({ attributes: [{ key: 'service.name', value: 'svc' }], droppedAttributesCount: 1 });
    expect(rs.schemaUrl).toBe('r');
    expect(rs.scopeSpans[0]!.scope).toEqual({ name: 's', version: '1', attributes: [], droppedAttributesCount: 2 });
    expect(rs.scopeSpans[0]!.schemaUrl).toBe('u');
    const span = rs.scopeSpans[0]!.spans[0]!;
    expect(span).toMatchObject({
      traceId: TRACE_ID,
      spanId: SPAN_ID,
      parentSpanId: SPAN_ID,
      traceState: 't',
      startTimeUnixNano: 1n,
      endTimeUnixNano: 2n,
      droppedAttributesCount: 3,
      droppedEventsCount: 4,
      droppedLinksCount: 5,
      events: [{ timeUnixNano: 9n, name: '', attributes: [], droppedAttributesCount: 6 }],
      links: [
        { traceId: TRACE_ID, spanId: SPAN_ID, traceState: 'l', attributes: [], droppedAttributesCount: 7, flags: 0 },
      ],
    });
    expect(span.attributes.map((a) => a.value)).toEqual([
      true,
      3n,
      1.5,
      new Uint8Array([0, 1, 2]),
      ['x'],
      { kvlist: [{ key: 'z', value: 1n }] },
    ]);
  });

  it('decodes doubles from numbers and the special strings', () => {
    expect(decodeValue({ doubleValue: 2.5 })).toBe(2.5);
    expect(decodeValue({ doubleValue: 'NaN' })).toBeNaN();
    expect(decodeValue({ doubleValue: 'Infinity' })).toBe(Infinity);
    expect(decodeValue({ doubleValue: '-Infinity' })).toBe(-Infinity);
    expect(decodeValue({ doubleValue: '1e3' })).toBe(1000);
    expect(decodeValue({ doubleValue: 3 })).toBe(3); // stays a double, not an int
  });

  it('decodes bytes from standard and URL-safe base64, with or without padding', () => {
    expect(decodeValue({ bytesValue: '+/8=' })).toEqual(new Uint8Array([0xfb, 0xff]));
    expect(decodeValue({ bytesValue: '-_8' })).toEqual(new Uint8Array([0xfb, 0xff]));
    expect(decodeValue({ bytesValue: '' })).toEqual(new Uint8Array(0));
  });

  it('treats null, {} and absent values as defaults and ignores unknown fields', () => {
    expect(decodeValue({})).toBeNull();
    expect(decodeValue(null)).toBeNull();
    expect(decodeValue({ doubleValue: null })).toBeNull();
    expect(decodeValue({ futureValue: 1, stringValue: 'x' })).toBe('x');
    expect(decodeSpan({ name: null, status: null, attributes: null, somethingNew: { a: 1 } })).toMatchObject({
      name: '',
      status: { code: 0, message: '' },
      attributes: [],
    });
    expect(decodeTraceRequestJson('{}')).toEqual({ resourceSpans: [] });
    expect(decodeTraceRequestJson('{"resourceSpans":[]}')).toEqual({ resourceSpans: [] });
  });

  it('decodes UTF-8 bytes with a BOM and keeps non-ASCII text', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(body({ name: 'héllo 🚀' }))]);
    expect(decodeTraceRequestJson(bytes).resourceSpans[0]!.scopeSpans[0]!.spans[0]!.name).toBe('héllo 🚀');
  });

  it('accepts AnyValue nesting up to 64 levels and rejects 65', () => {
    const nested = (levels: number): unknown => {
      let v: unknown = { intValue: '1' };
      for (let i = 1; i < levels; i++) v = { arrayValue: { values: [v] } };
      return v;
    };
    expect(decodeValue(nested(64))).toBeTruthy();
    expect(decodeError(body({ attributes: [{ key: 'k', value: nested(65) }] })).message).toMatch(
      /nested deeper than 64/,
    );
  });
});

describe('decodeTraceRequestJson errors', () => {
  const spanPath = 'resourceSpans[0].scopeSpans[0].spans[0]';
  const cases: [string, string, string, RegExp][] = [
    ['a non-hex trace id', body({ traceId: 'z'.repeat(32) }), `${spanPath}.traceId`, /expected 32 hex digits/],
    ['a short span id', body({ spanId: 'abc' }), `${spanPath}.spanId`, /expected 16 hex digits \(8 bytes\)/],
    ['a numeric parent span id', body({ parentSpanId: 5 }), `${spanPath}.parentSpanId`, /expected a hex string/],
    [
      'a link trace id of the wrong length',
      body({ links: [{}, { traceId: TRACE_ID + '00' }] }),
      `${spanPath}.links[1].traceId`,
      /expected 32 hex digits/,
    ],
    [
      'a fractional timestamp',
      body({ startTimeUnixNano: 1.5 }),
      `${spanPath}.startTimeUnixNano`,
      /expected an integer/,
    ],
    ['a negative timestamp', body({ endTimeUnixNano: '-1' }), `${spanPath}.endTimeUnixNano`, /expected an integer/],
    [
      'a timestamp beyond uint64',
      body({ endTimeUnixNano: '18446744073709551616' }),
      `${spanPath}.endTimeUnixNano`,
      /out of range for uint64/,
    ],
    [
      'an int beyond int64',
      body({ attributes: [{ key: 'k', value: { intValue: '9223372036854775808' } }] }),
      `${spanPath}.attributes[0].value.intValue`,
      /out of range for int64/,
    ],
    [
      'a hex-looking int',
      body({ attributes: [{ key: 'k', value: { intValue: '0x10' } }] }),
      `${spanPath}.attributes[0].value.intValue`,
      /expected an integer/,
    ],
    [
      'an unknown enum name',
      body({ kind: 'SPAN_KIND_WEIRD' }),
      `${spanPath}.kind`,
      /expected an enum integer or one of SPAN_KIND_UNSPECIFIED/,
    ],
    ['a negative count', body({ droppedLinksCount: -1 }), `${spanPath}.droppedLinksCount`, /expected a uint32/],
    [
      'a string where an array belongs',
      body({ events: 'none' }),
      `${spanPath}.events`,
      /expected an array, got string/,
    ],
    [
      'an array where an object belongs',
      body({ status: [] }),
      `${spanPath}.status`,
      /expected an object, got an array/,
    ],
    ['a number as name', body({ name: 7 }), `${spanPath}.name`, /expected a string, got number 7/],
    [
      'two AnyValue members',
      body({ attributes: [{ key: 'k', value: { stringValue: 'a', intValue: 1 } }] }),
      `${spanPath}.attributes[0].value`,
      /more than one value set \(stringValue, intValue\)/,
    ],
    [
      'invalid base64',
      body({ attributes: [{ key: 'k', value: { bytesValue: 'a$b' } }] }),
      `${spanPath}.attributes[0].value.bytesValue`,
      /expected base64/,
    ],
    [
      'a bad double',
      body({ attributes: [{ key: 'k', value: { doubleValue: 'lots' } }] }),
      `${spanPath}.attributes[0].value.doubleValue`,
      /expected a double/,
    ],
    [
      'a nested kvlist entry that is not an object',
      body({ attributes: [{ key: 'k', value: { kvlistValue: { values: [1] } } }] }),
      `${spanPath}.attributes[0].value.kvlistValue.values[0]`,
      /expected an object/,
    ],
    ['resourceSpans that is an object', '{"resourceSpans":{}}', 'resourceSpans', /expected an array, got an object/],
  ];
  it.each(cases)('rejects %s with the field path', (_name, json, path, message) => {
    const err = decodeError(json);
    expect(err.path).toBe(path);
    expect(err.message).toContain(`at ${path}:`);
    expect(err.message).toMatch(message);
    expect(err.code).toBe('BAD_REQUEST');
  });

  it('rejects invalid JSON and non-object bodies', () => {
    expect(decodeError('{"resourceSpans": [').message).toMatch(/invalid JSON/);
    expect(decodeError(new Uint8Array([0x7b])).message).toMatch(/invalid JSON/);
    expect(decodeError('[]').message).toMatch(/must be a JSON object/);
    expect(decodeError('null').message).toMatch(/must be a JSON object/);
  });
});
