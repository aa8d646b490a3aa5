/**
 * Test fixture (not shipped API): OTLP request objects as protobuf bytes,
 * so the normalise tests' requests (and the JSON interop fixtures) can be
 * sent through the fused protobuf path. Every field is written, defaults
 * too, in field order.
 */
import { double, fixed32, fixed64, hexBytes, len, toBuffer, vint, type Bytes } from '../otlp/protoWriter.fixture.js';
import type { AnyValue, KeyValue, OtlpSpan, OtlpTraceRequest } from '../otlp/types.js';

function anyValue(v: AnyValue): Bytes {
  if (v === null) return [];
  if (typeof v === 'string') return len(1, v);
  if (typeof v === 'boolean') return vint(2, v ? 1 : 0);
  if (typeof v === 'bigint') return vint(3, v);
  if (typeof v === 'number') return double(4, v);
  if (v instanceof Uint8Array) return len(7, v);
  if (Array.isArray(v))
    return len(
      5,
      v.flatMap((x) => len(1, anyValue(x))),
    );
  return len(
    6,
    v.kvlist.flatMap((kv) => len(1, keyValue(kv))),
  );
}

function keyValue(kv: KeyValue): Bytes {
  return [...len(1, kv.key), ...len(2, anyValue(kv.value))];
}

const attributes = (field: number, kvs: readonly KeyValue[]): Bytes => kvs.flatMap((kv) => len(field, keyValue(kv)));

function span(s: OtlpSpan): Bytes {
  return [
    ...len(1, hexBytes(s.traceId)),
    ...len(2, hexBytes(s.spanId)),
    ...len(3, s.traceState),
    ...len(4, hexBytes(s.parentSpanId)),
    ...len(5, s.name),
    ...vint(6, s.kind),
    ...fixed64(7, s.startTimeUnixNano),
    ...fixed64(8, s.endTimeUnixNano),
    ...attributes(9, s.attributes),
    ...vint(10, s.droppedAttributesCount),
    ...s.events.flatMap((e) =>
      len(11, [
        ...fixed64(1, e.timeUnixNano),
        ...len(2, e.name),
        ...attributes(3, e.attributes),
        ...vint(4, e.droppedAttributesCount),
      ]),
    ),
    ...vint(12, s.droppedEventsCount),
    ...s.links.flatMap((l) =>
      len(13, [
        ...len(1, hexBytes(l.traceId)),
        ...len(2, hexBytes(l.spanId)),
        ...len(3, l.traceState),
        ...attributes(4, l.attributes),
        ...vint(5, l.droppedAttributesCount),
        ...fixed32(6, l.flags),
      ]),
    ),
    ...vint(14, s.droppedLinksCount),
    ...len(15, [...len(2, s.status.message), ...vint(3, s.status.code)]),
    ...fixed32(16, s.flags),
  ];
}

/** The request as an ExportTraceServiceRequest body. */
export function encodeTraceRequest(req: OtlpTraceRequest): Uint8Array {
  return toBuffer(
    req.resourceSpans.flatMap((rs) =>
      len(1, [
        ...len(1, [...attributes(1, rs.resource.attributes), ...vint(2, rs.resource.droppedAttributesCount)]),
        ...rs.scopeSpans.flatMap((ss) =>
          len(2, [
            ...len(1, [
              ...len(1, ss.scope.name),
              ...len(2, ss.scope.version),
              ...attributes(3, ss.scope.attributes),
              ...vint(4, ss.scope.droppedAttributesCount),
            ]),
            ...ss.spans.flatMap((s) => len(2, span(s))),
            ...len(3, ss.schemaUrl),
          ]),
        ),
        ...len(3, rs.schemaUrl),
      ]),
    ),
  );
}
