import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { describe, expect, it } from 'vitest';
import { OtlpDecodeError } from './OtlpDecodeError.js';
import { decodeTraceRequestProto } from './protoDecoder.js';
import { EXPECTED_COVERAGE, coverage } from './coverage.fixture.js';
import { Rng, expectedFromReadableSpans, randomSpans } from './randomSpans.fixture.js';
import { double, fixed32, fixed64, hexBytes, len, tag, toBuffer, varint, vint } from './protoWriter.fixture.js';
import type { Bytes } from './protoWriter.fixture.js';
import type { AnyValue } from './types.js';

const TRACE_ID = '5b8efff798038103d269b633813fc60c';
const SPAN_ID = 'eee19b7ec3c1b174';

/** ExportTraceServiceRequest { resource_spans { scope_spans { spans: span } } }, with `extra` at every level. */
function request(span: Bytes, extra: Bytes = []): Uint8Array {
  const scopeSpans = [
    ...extra,
    ...len(1, [...extra, ...len(1, 'scope'), ...extra]),
    ...len(2, span),
    ...len(3, 'url'),
    ...extra,
  ];
  const resource = [
    ...extra,
    ...len(1, [...len(1, 'service.name'), ...extra, ...len(2, [...extra, ...len(1, 'svc')])]),
    ...extra,
  ];
  return toBuffer(extra, len(1, [...extra, ...len(1, resource), ...len(2, scopeSpans), ...extra]), extra);
}

/** A span with one attribute whose AnyValue body is `value`. */
function spanWithValue(value: Bytes): Bytes {
  return [
    ...len(1, hexBytes(TRACE_ID)),
    ...len(2, hexBytes(SPAN_ID)),
    ...len(5, 'op'),
    ...len(9, [...len(1, 'k'), ...len(2, value)]),
  ];
}

function decodeValue(value: Bytes): AnyValue {
  return decodeTraceRequestProto(request(spanWithValue(value))).resourceSpans[0]!.scopeSpans[0]!.spans[0]!
    .attributes[0]!.value;
}

function decodeError(buf: Uint8Array): OtlpDecodeError {
  try {
    decodeTraceRequestProto(buf);
  } catch (err) {
    expect(err).toBeInstanceOf(OtlpDecodeError);
    return err as OtlpDecodeError;
  }
  throw new Error('expected decoding to fail');
}

describe('decodeTraceRequestProto round trip', () => {
  it('decodes 320 random requests from ProtobufTraceSerializer exactly', () => {
    let spanCount = 0;
    const seen = new Set<string>();
    for (let seed = 1; seed <= 320; seed++) {
      const spans = randomSpans(new Rng(seed));
      const bytes = ProtobufTraceSerializer.serializeRequest(spans)!;
      const decoded = decodeTraceRequestProto(bytes);
      expect(decoded, `seed ${seed}`).toEqual(expectedFromReadableSpans(spans, 'proto'));
      coverage(decoded, seen);
      spanCount += spans.length;
    }
    expect(spanCount).toBeGreaterThan(1000);
    expect([...seen].sort()).toEqual(expect.arrayContaining([...EXPECTED_COVERAGE, 'double:NaN', 'double:infinite']));
  });

  it('decodes a body that is a view at a non-zero byteOffset', () => {
    const spans = randomSpans(new Rng(7));
    const bytes = ProtobufTraceSerializer.serializeRequest(spans)!;
    const padded = new Uint8Array(bytes.length + 13);
    padded.set(bytes, 5);
    expect(decodeTraceRequestProto(padded.subarray(5, 5 + bytes.length))).toEqual(
      expectedFromReadableSpans(spans, 'proto'),
    );
  });
});

describe('decodeTraceRequestProto wire details', () => {
  it('decodes an empty body as an empty request', () => {
    expect(decodeTraceRequestProto(new Uint8Array(0))).toEqual({ resourceSpans: [] });
  });

  it('fills defaults for absent fields', () => {
    const rs = decodeTraceRequestProto(toBuffer(len(1, len(2, len(2, []))))).resourceSpans;
    expect(rs).toEqual([
      {
        resource: { attributes: [], droppedAttributesCount: 0 },
        scopeSpans: [
          {
            scope: { name: '', version: '', attributes: [], droppedAttributesCount: 0 },
            spans: [
              {
                traceId: '',
                spanId: '',
                traceState: '',
                parentSpanId: '',
                flags: 0,
                name: '',
                kind: 0,
                startTimeUnixNano: 0n,
                endTimeUnixNano: 0n,
                attributes: [],
                droppedAttributesCount: 0,
                events: [],
                droppedEventsCount: 0,
                links: [],
                droppedLinksCount: 0,
                status: { code: 0, message: '' },
              },
            ],
            schemaUrl: '',
          },
        ],
        schemaUrl: '',
      },
    ]);
  });

  it('decodes int64 values across the whole range, including 10-byte negatives', () => {
    for (const v of [
      0n,
      1n,
      -1n,
      127n,
      -128n,
      2n ** 53n + 1n,
      -(2n ** 53n) - 1n,
      2n ** 63n - 1n,
      -(2n ** 63n),
      -(2n ** 53n),
      2n ** 32n,
      -(2n ** 32n),
    ]) {
      expect(decodeValue(vint(3, v)), String(v)).toBe(v);
    }
    expect(varint(-1n)).toHaveLength(10);
  });

  it('decodes fixed64 timestamps up to 2^64-1 and fixed32 flags up to 2^32-1 exactly', () => {
    const span = [...fixed64(7, 2n ** 64n - 1n), ...fixed64(8, 1_700_000_000_123_456_789n), ...fixed32(16, 0xffffffff)];
    const out = decodeTraceRequestProto(request(span)).resourceSpans[0]!.scopeSpans[0]!.spans[0]!;
    expect([out.startTimeUnixNano, out.endTimeUnixNano, out.flags]).toEqual([
      2n ** 64n - 1n,
      1_700_000_000_123_456_789n,
      0xffffffff,
    ]);
  });

  it('decodes every AnyValue kind', () => {
    expect(decodeValue(len(1, 'héllo 🚀'))).toBe('héllo 🚀');
    expect(decodeValue(vint(2, 1))).toBe(true);
    expect(decodeValue(vint(2, 0))).toBe(false);
    expect(decodeValue(double(4, -0.25))).toBe(-0.25);
    expect(decodeValue(double(4, NaN))).toBeNaN();
    expect(decodeValue(len(7, [0, 255, 7]))).toEqual(new Uint8Array([0, 255, 7]));
    expect(decodeValue(len(5, [...len(1, vint(3, 1)), ...len(1, []), ...len(1, len(1, 'x'))]))).toEqual([
      1n,
      null,
      'x',
    ]);
    expect(decodeValue(len(6, len(1, [...len(1, 'a'), ...len(2, vint(2, 1))])))).toEqual({
      kvlist: [{ key: 'a', value: true }],
    });
    expect(decodeValue([])).toBeNull();
  });

  it('keeps the last AnyValue oneof member and merges a repeated singular message', () => {
    expect(decodeValue([...len(1, 'first'), ...vint(3, 9)])).toBe(9n);
    const span = [...len(15, [...len(2, 'boom'), ...vint(3, 2)]), ...len(15, vint(3, 1))];
    expect(decodeTraceRequestProto(request(span)).resourceSpans[0]!.scopeSpans[0]!.spans[0]!.status).toEqual({
      code: 1,
      message: 'boom',
    });
  });

  it('reads enums as int32 (negative values are 10-byte varints) and uint32 counts modulo 2^32', () => {
    const span = [...vint(6, -3), ...vint(10, 2n ** 32n + 5n), ...len(15, vint(3, -1))];
    const out = decodeTraceRequestProto(request(span)).resourceSpans[0]!.scopeSpans[0]!.spans[0]!;
    expect([out.kind, out.droppedAttributesCount, out.status.code]).toEqual([-3, 5, -1]);
  });

  it('tolerates invalid UTF-8 (U+FFFD) and keeps a leading BOM', () => {
    expect(decodeValue(len(1, [0x61, 0xff, 0x62, 0xc3]))).toBe('a\ufffdb\ufffd');
    expect(decodeValue(len(1, '\ufeffx'))).toBe('\ufeffx');
  });

  it('skips unknown fields of every wire type at every level', () => {
    const group = [...tag(95, 3), ...vint(1, 1), ...tag(94, 3), ...len(2, 'in'), ...tag(94, 4), ...tag(95, 4)];
    const unknown = [
      ...vint(99, -5),
      ...fixed64(98, 1n),
      ...len(97, 'future'),
      ...fixed32(96, 7),
      ...group,
      ...vint(100_000, 1),
    ];
    const anyValue = [
      ...unknown,
      ...len(5, [
        ...unknown,
        ...len(1, [...len(6, [...unknown, ...len(1, [...unknown, ...len(1, 'k'), ...unknown])])]),
      ]),
    ];
    const span = [
      ...unknown,
      ...len(1, hexBytes(TRACE_ID)),
      ...unknown,
      ...len(2, hexBytes(SPAN_ID)),
      ...len(5, 'op'),
      ...len(9, [...unknown, ...len(1, 'attr'), ...unknown, ...len(2, anyValue)]),
      ...len(11, [...unknown, ...fixed64(1, 5n), ...unknown, ...len(2, 'ev')]),
      ...len(13, [...unknown, ...len(1, hexBytes(TRACE_ID)), ...unknown, ...fixed32(6, 0x301)]),
      ...len(15, [...unknown, ...vint(3, 2), ...unknown]),
      ...unknown,
    ];
    // The same message without the unknown fields:
    const cleanAny = len(5, len(1, len(6, len(1, len(1, 'k')))));
    const cleanSpan = [
      ...len(1, hexBytes(TRACE_ID)),
      ...len(2, hexBytes(SPAN_ID)),
      ...len(5, 'op'),
      ...len(9, [...len(1, 'attr'), ...len(2, cleanAny)]),
      ...len(11, [...fixed64(1, 5n), ...len(2, 'ev')]),
      ...len(13, [...len(1, hexBytes(TRACE_ID)), ...fixed32(6, 0x301)]),
      ...len(15, vint(3, 2)),
    ];
    const expected = decodeTraceRequestProto(request(cleanSpan));
    expect(expected.resourceSpans[0]!.scopeSpans[0]!.spans[0]!.attributes[0]!.value).toEqual([
      { kvlist: [{ key: 'k', value: null }] },
    ]);
    expect(decodeTraceRequestProto(request(span, unknown))).toEqual(expected);
  });

  it('accepts AnyValue nesting up to 64 levels and rejects 65', () => {
    const nested = (levels: number): Bytes => {
      let v: Bytes = vint(3, 1);
      for (let i = 1; i < levels; i++) v = len(5, len(1, v));
      return v;
    };
    let deepest: AnyValue = decodeValue(nested(64));
    for (let i = 1; i < 64; i++) deepest = (deepest as AnyValue[])[0]!;
    expect(deepest).toBe(1n);
    expect(decodeError(request(spanWithValue(nested(65)))).message).toMatch(/nested deeper than 64/);
  });
});

describe('decodeTraceRequestProto malformed input', () => {
  const cases: [string, Uint8Array, RegExp][] = [
    ['field number 0', toBuffer([0x00]), /byte offset 0: invalid field tag 0/],
    ['truncated varint', toBuffer(tag(99, 0), [0x80]), /truncated varint/],
    ['11-byte varint', toBuffer(tag(99, 0), Array<number>(10).fill(0x80), [0x01]), /longer than 10 bytes/],
    [
      'int64 overflowing 64 bits',
      request(spanWithValue([...tag(3, 0), ...Array<number>(9).fill(0xff), 0x02])),
      /overflows 64 bits/,
    ],
    ['length past the end', toBuffer(tag(1, 2), [5, 1, 2]), /length 5 exceeds the 2 bytes left/],
    ['length past the enclosing message', toBuffer(len(1, [...tag(1, 2), 10])), /length 10 exceeds the 0 bytes left/],
    ['truncated fixed64', toBuffer(tag(99, 1), [1, 2, 3]), /truncated fixed64/],
    ['truncated fixed32', toBuffer(tag(99, 5), [1]), /truncated fixed32/],
    ['wire type 6', toBuffer(tag(99, 6)), /invalid wire type 6/],
    ['wire type 7', toBuffer(tag(99, 7)), /invalid wire type 7/],
    ['stray end-group', toBuffer(tag(99, 4)), /unexpected end-group/],
    ['mismatched end-group', toBuffer(tag(99, 3), tag(98, 4)), /end-group for field 98 closes group 99/],
    ['unterminated group', toBuffer(tag(99, 3), vint(1, 1)), /truncated group/],
    ['known field, wrong wire type', request(vint(5, 1)), /wrong wire type 0 for Span field 5/],
    ['resource_spans as varint', toBuffer(vint(1, 1)), /wrong wire type 0 for ExportTraceServiceRequest field 1/],
    ['trace_id of 5 bytes', request(len(1, [1, 2, 3, 4, 5])), /Span.trace_id must be 16 bytes \(or empty\), got 5/],
    ['link span_id of 16 bytes', request(len(13, len(2, hexBytes(TRACE_ID)))), /Span.Link.span_id must be 8 bytes/],
    ['timestamp as varint', request(vint(7, 5)), /wrong wire type 0 for Span field 7/],
  ];
  it.each(cases)('rejects %s with OtlpDecodeError and the byte offset', (_name, buf, message) => {
    const err = decodeError(buf);
    expect(err.message).toMatch(message);
    expect(err.message).toMatch(/at byte offset \d+/);
    expect(err.offset).toBeTypeOf('number');
    expect(err.code).toBe('BAD_REQUEST');
  });

  it('reports the offset of the offending tag', () => {
    const prefix = toBuffer(vint(99, 1)); // 3 bytes of unknown field before the bad tag
    expect(decodeError(toBuffer([...prefix], vint(1, 1))).offset).toBe(prefix.length);
  });

  it('truncated at every byte offset: throws OtlpDecodeError unless the prefix ends on a top-level field', () => {
    let seed = 1;
    let bytes: Uint8Array = new Uint8Array(0);
    for (; bytes.length < 3000 || bytes.length > 30_000; seed++)
      bytes = ProtobufTraceSerializer.serializeRequest(randomSpans(new Rng(seed), 3))!;
    const full = decodeTraceRequestProto(bytes);
    expect(full.resourceSpans.length).toBeGreaterThan(0);
    // Offsets where a top-level field (one ResourceSpans) ends.
    const boundaries = [0];
    for (let pos = 0; pos < bytes.length;) {
      pos += 1; // tag 0x0a
      let length = 0;
      for (let shift = 0; ; shift += 7) {
        const b = bytes[pos++]!;
        length += (b & 0x7f) * 2 ** shift;
        if (b < 0x80) break;
      }
      pos += length;
      boundaries.push(pos);
    }
    let decodedPrefixes = 0;
    for (let k = 0; k < bytes.length; k++) {
      let result;
      try {
        result = decodeTraceRequestProto(bytes.subarray(0, k));
      } catch (err) {
        expect(err, `offset ${k}`).toBeInstanceOf(OtlpDecodeError);
        continue;
      }
      const index = boundaries.indexOf(k);
      expect(index, `offset ${k} decoded but is not a message boundary`).toBeGreaterThanOrEqual(0);
      expect(result.resourceSpans).toEqual(full.resourceSpans.slice(0, index));
      decodedPrefixes++;
    }
    expect(decodedPrefixes).toBe(boundaries.length - 1);
  });

  it('random corruption only ever throws OtlpDecodeError', () => {
    const rng = new Rng(99);
    let base: Uint8Array = new Uint8Array(0);
    for (let seed = 1; base.length < 1000 || base.length > 8000; seed++)
      base = ProtobufTraceSerializer.serializeRequest(randomSpans(new Rng(seed), 3))!;
    let failures = 0;
    for (let i = 0; i < 3000; i++) {
      const buf = Uint8Array.from(base);
      for (let n = rng.int(1, 4); n > 0; n--) buf[rng.int(0, buf.length - 1)] = rng.int(0, 255);
      try {
        decodeTraceRequestProto(buf);
      } catch (err) {
        expect(err).toBeInstanceOf(OtlpDecodeError);
        failures++;
      }
    }
    expect(failures).toBeGreaterThan(100);
  });
});

describe('decodeTraceRequestProto: repeated short strings (decoded once, then reused by their bytes)', () => {
  /** One span per key, each with the key as attribute name, string value and span name. */
  function keysRequest(keys: readonly (string | Bytes)[]): Uint8Array {
    const spans = keys.flatMap((k) =>
      len(2, [
        ...len(1, hexBytes(TRACE_ID)),
        ...len(2, hexBytes(SPAN_ID)),
        ...len(5, k),
        ...len(9, [...len(1, k), ...len(2, len(1, k))]),
      ]),
    );
    return toBuffer(len(1, len(2, spans)));
  }
  function decodedTexts(buf: Uint8Array): string[] {
    return decodeTraceRequestProto(buf).resourceSpans[0]!.scopeSpans[0]!.spans.flatMap((s) => [
      s.name,
      s.attributes[0]!.key,
      s.attributes[0]!.value as string,
    ]);
  }

  it('returns every string exactly, however many share a length, a prefix or a suffix, in any order, again and again', () => {
    // 20,000 distinct strings of equal length that differ only in the middle: they collide in the cache's slots
    const keys = Array.from({ length: 20_000 }, (_, i) => `gen_ai.usage.${String(i).padStart(5, '0')}.tokens`);
    const shuffled = [...keys].reverse();
    for (const order of [keys, shuffled, keys])
      expect(decodedTexts(keysRequest(order))).toEqual(order.flatMap((k) => [k, k, k]));
  });

  it('does not confuse strings that differ in one byte, in length only, or in their non-ASCII bytes', () => {
    const keys = [
      'telltale.step.kind',
      'telltale.step.name',
      'telltale.step.kinds',
      'telltale.step.kin',
      'é',
      'è',
      'model-é-1',
      'model-è-1',
      'x'.repeat(64),
      'x'.repeat(65),
      'x'.repeat(63),
    ];
    for (let round = 0; round < 3; round++)
      expect(decodedTexts(keysRequest([...keys, ...keys]))).toEqual([...keys, ...keys].flatMap((k) => [k, k, k]));
  });

  it('decodes invalid UTF-8 the same way the first time and from the cache', () => {
    const bad: Bytes = [0x61, 0xff, 0x62, 0xc3];
    for (let round = 0; round < 2; round++)
      expect(decodedTexts(keysRequest([bad, 'ab', bad]))).toEqual([
        'a\ufffdb\ufffd',
        'a\ufffdb\ufffd',
        'a\ufffdb\ufffd',
        'ab',
        'ab',
        'ab',
        'a\ufffdb\ufffd',
        'a\ufffdb\ufffd',
        'a\ufffdb\ufffd',
      ]);
  });

  it('returns strings that do not alias the request body', () => {
    const buf = keysRequest(['service.name']);
    const first = decodedTexts(buf);
    buf.fill(0x7a);
    expect(first).toEqual(['service.name', 'service.name', 'service.name']);
    expect(decodedTexts(keysRequest(['service.name']))).toEqual(['service.name', 'service.name', 'service.name']);
  });
});
