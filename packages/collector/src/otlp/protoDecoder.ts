import { decodeKeyValue } from './protoAnyValue.js';
import { ProtoReader } from './protoReader.js';
import { WireType, fieldTag, knownFields } from './protoWire.js';
import type {
  OtlpEvent,
  OtlpLink,
  OtlpResource,
  OtlpResourceSpans,
  OtlpScope,
  OtlpScopeSpans,
  OtlpSpan,
  OtlpStatus,
  OtlpTraceRequest,
} from './types.js';

/*
 * Hand-written decoder for opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest
 * (field numbers from opentelemetry-proto trace.proto / common.proto / resource.proto).
 *
 * Each message decoder switches on the whole tag (field << 3 | wire type), so
 * a known field with the expected wire type is one jump; everything else goes
 * to `skipUnknown`, which rejects a known field number with the wrong wire
 * type and skips unknown fields of any wire type (forward compatibility).
 *
 * Protobuf semantics kept: absent fields take their defaults; a singular
 * message field that occurs twice is merged (repeated fields appended,
 * scalars overwritten), which is why the nested decoders fill a target object.
 * Attribute values (common.proto) are decoded in protoAnyValue.ts.
 */

const { VARINT, I64, LEN, I32 } = WireType;

// ExportTraceServiceRequest
const REQ_RESOURCE_SPANS = fieldTag(1, LEN);
const REQ_FIELDS = knownFields(1);
// ResourceSpans
const RS_RESOURCE = fieldTag(1, LEN);
const RS_SCOPE_SPANS = fieldTag(2, LEN);
const RS_SCHEMA_URL = fieldTag(3, LEN);
const RS_FIELDS = knownFields(1, 2, 3);
// Resource
const RES_ATTRIBUTES = fieldTag(1, LEN);
const RES_DROPPED = fieldTag(2, VARINT);
const RES_FIELDS = knownFields(1, 2);
// ScopeSpans
const SS_SCOPE = fieldTag(1, LEN);
const SS_SPANS = fieldTag(2, LEN);
const SS_SCHEMA_URL = fieldTag(3, LEN);
const SS_FIELDS = knownFields(1, 2, 3);
// InstrumentationScope
const SCOPE_NAME = fieldTag(1, LEN);
const SCOPE_VERSION = fieldTag(2, LEN);
const SCOPE_ATTRIBUTES = fieldTag(3, LEN);
const SCOPE_DROPPED = fieldTag(4, VARINT);
const SCOPE_FIELDS = knownFields(1, 2, 3, 4);
// Span
const SPAN_TRACE_ID = fieldTag(1, LEN);
const SPAN_SPAN_ID = fieldTag(2, LEN);
const SPAN_TRACE_STATE = fieldTag(3, LEN);
const SPAN_PARENT_SPAN_ID = fieldTag(4, LEN);
const SPAN_NAME = fieldTag(5, LEN);
const SPAN_KIND = fieldTag(6, VARINT);
const SPAN_START = fieldTag(7, I64);
const SPAN_END = fieldTag(8, I64);
const SPAN_ATTRIBUTES = fieldTag(9, LEN);
const SPAN_DROPPED_ATTRIBUTES = fieldTag(10, VARINT);
const SPAN_EVENTS = fieldTag(11, LEN);
const SPAN_DROPPED_EVENTS = fieldTag(12, VARINT);
const SPAN_LINKS = fieldTag(13, LEN);
const SPAN_DROPPED_LINKS = fieldTag(14, VARINT);
const SPAN_STATUS = fieldTag(15, LEN);
const SPAN_FLAGS = fieldTag(16, I32);
const SPAN_FIELDS = knownFields(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16);
// Span.Event
const EVENT_TIME = fieldTag(1, I64);
const EVENT_NAME = fieldTag(2, LEN);
const EVENT_ATTRIBUTES = fieldTag(3, LEN);
const EVENT_DROPPED = fieldTag(4, VARINT);
const EVENT_FIELDS = knownFields(1, 2, 3, 4);
// Span.Link
const LINK_TRACE_ID = fieldTag(1, LEN);
const LINK_SPAN_ID = fieldTag(2, LEN);
const LINK_TRACE_STATE = fieldTag(3, LEN);
const LINK_ATTRIBUTES = fieldTag(4, LEN);
const LINK_DROPPED = fieldTag(5, VARINT);
const LINK_FLAGS = fieldTag(6, I32);
const LINK_FIELDS = knownFields(1, 2, 3, 4, 5, 6);
// Status (field 1 is reserved)
const STATUS_MESSAGE = fieldTag(2, LEN);
const STATUS_CODE = fieldTag(3, VARINT);
const STATUS_FIELDS = knownFields(2, 3);
/**
 * Decodes an OTLP/protobuf ExportTraceServiceRequest body.
 * @throws OtlpDecodeError on malformed input, with the byte offset.
 */
export function decodeTraceRequestProto(buf: Uint8Array): OtlpTraceRequest {
  const r = new ProtoReader(buf);
  const resourceSpans: OtlpResourceSpans[] = [];
  while (r.pos < r.limit) {
    const tag = r.readTag();
    if (tag === REQ_RESOURCE_SPANS) resourceSpans.push(decodeResourceSpans(r));
    else r.skipUnknown(tag, REQ_FIELDS, 'ExportTraceServiceRequest');
  }
  return { resourceSpans };
}

function decodeResourceSpans(r: ProtoReader): OtlpResourceSpans {
  const out: OtlpResourceSpans = {
    resource: { attributes: [], droppedAttributesCount: 0 },
    scopeSpans: [],
    schemaUrl: '',
  };
  const parent = r.enter();
  while (r.pos < r.limit) {
    const tag = r.readTag();
    switch (tag) {
      case RS_RESOURCE:
        decodeResourceInto(r, out.resource);
        break;
      case RS_SCOPE_SPANS:
        out.scopeSpans.push(decodeScopeSpans(r));
        break;
      case RS_SCHEMA_URL:
        out.schemaUrl = r.readString();
        break;
      default:
        r.skipUnknown(tag, RS_FIELDS, 'ResourceSpans');
    }
  }
  r.leave(parent);
  return out;
}

export function decodeResourceInto(r: ProtoReader, out: OtlpResource): void {
  const parent = r.enter();
  while (r.pos < r.limit) {
    const tag = r.readTag();
    switch (tag) {
      case RES_ATTRIBUTES:
        out.attributes.push(decodeKeyValue(r, 0));
        break;
      case RES_DROPPED:
        out.droppedAttributesCount = r.readUint32();
        break;
      default:
        r.skipUnknown(tag, RES_FIELDS, 'Resource');
    }
  }
  r.leave(parent);
}

function decodeScopeSpans(r: ProtoReader): OtlpScopeSpans {
  const out: OtlpScopeSpans = {
    scope: { name: '', version: '', attributes: [], droppedAttributesCount: 0 },
    spans: [],
    schemaUrl: '',
  };
  const parent = r.enter();
  while (r.pos < r.limit) {
    const tag = r.readTag();
    switch (tag) {
      case SS_SCOPE:
        decodeScopeInto(r, out.scope);
        break;
      case SS_SPANS:
        out.spans.push(decodeSpan(r));
        break;
      case SS_SCHEMA_URL:
        out.schemaUrl = r.readString();
        break;
      default:
        r.skipUnknown(tag, SS_FIELDS, 'ScopeSpans');
    }
  }
  r.leave(parent);
  return out;
}

export function decodeScopeInto(r: ProtoReader, out: OtlpScope): void {
  const parent = r.enter();
  while (r.pos < r.limit) {
    const tag = r.readTag();
    switch (tag) {
      case SCOPE_NAME:
        out.name = r.readString();
        break;
      case SCOPE_VERSION:
        out.version = r.readString();
        break;
      case SCOPE_ATTRIBUTES:
        out.attributes.push(decodeKeyValue(r, 0));
        break;
      case SCOPE_DROPPED:
        out.droppedAttributesCount = r.readUint32();
        break;
      default:
        r.skipUnknown(tag, SCOPE_FIELDS, 'InstrumentationScope');
    }
  }
  r.leave(parent);
}

export function decodeSpan(r: ProtoReader): OtlpSpan {
  const span: OtlpSpan = {
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
  };
  const parent = r.enter();
  while (r.pos < r.limit) {
    const tag = r.readTag();
    switch (tag) {
      case SPAN_TRACE_ID:
        span.traceId = r.readId(16, 'Span.trace_id');
        break;
      case SPAN_SPAN_ID:
        span.spanId = r.readId(8, 'Span.span_id');
        break;
      case SPAN_TRACE_STATE:
        span.traceState = r.readString();
        break;
      case SPAN_PARENT_SPAN_ID:
        span.parentSpanId = r.readId(8, 'Span.parent_span_id');
        break;
      case SPAN_NAME:
        span.name = r.readString();
        break;
      case SPAN_KIND:
        span.kind = r.readUint32() | 0;
        break; // enum = int32
      case SPAN_START:
        span.startTimeUnixNano = r.readFixed64();
        break;
      case SPAN_END:
        span.endTimeUnixNano = r.readFixed64();
        break;
      case SPAN_ATTRIBUTES:
        span.attributes.push(decodeKeyValue(r, 0));
        break;
      case SPAN_DROPPED_ATTRIBUTES:
        span.droppedAttributesCount = r.readUint32();
        break;
      case SPAN_EVENTS:
        span.events.push(decodeEvent(r));
        break;
      case SPAN_DROPPED_EVENTS:
        span.droppedEventsCount = r.readUint32();
        break;
      case SPAN_LINKS:
        span.links.push(decodeLink(r));
        break;
      case SPAN_DROPPED_LINKS:
        span.droppedLinksCount = r.readUint32();
        break;
      case SPAN_STATUS:
        decodeStatusInto(r, span.status);
        break;
      case SPAN_FLAGS:
        span.flags = r.readFixed32();
        break;
      default:
        r.skipUnknown(tag, SPAN_FIELDS, 'Span');
    }
  }
  r.leave(parent);
  return span;
}

export function decodeEvent(r: ProtoReader): OtlpEvent {
  const event: OtlpEvent = { timeUnixNano: 0n, name: '', attributes: [], droppedAttributesCount: 0 };
  const parent = r.enter();
  while (r.pos < r.limit) {
    const tag = r.readTag();
    switch (tag) {
      case EVENT_TIME:
        event.timeUnixNano = r.readFixed64();
        break;
      case EVENT_NAME:
        event.name = r.readString();
        break;
      case EVENT_ATTRIBUTES:
        event.attributes.push(decodeKeyValue(r, 0));
        break;
      case EVENT_DROPPED:
        event.droppedAttributesCount = r.readUint32();
        break;
      default:
        r.skipUnknown(tag, EVENT_FIELDS, 'Span.Event');
    }
  }
  r.leave(parent);
  return event;
}

export function decodeLink(r: ProtoReader): OtlpLink {
  const link: OtlpLink = {
    traceId: '',
    spanId: '',
    traceState: '',
    attributes: [],
    droppedAttributesCount: 0,
    flags: 0,
  };
  const parent = r.enter();
  while (r.pos < r.limit) {
    const tag = r.readTag();
    switch (tag) {
      case LINK_TRACE_ID:
        link.traceId = r.readId(16, 'Span.Link.trace_id');
        break;
      case LINK_SPAN_ID:
        link.spanId = r.readId(8, 'Span.Link.span_id');
        break;
      case LINK_TRACE_STATE:
        link.traceState = r.readString();
        break;
      case LINK_ATTRIBUTES:
        link.attributes.push(decodeKeyValue(r, 0));
        break;
      case LINK_DROPPED:
        link.droppedAttributesCount = r.readUint32();
        break;
      case LINK_FLAGS:
        link.flags = r.readFixed32();
        break;
      default:
        r.skipUnknown(tag, LINK_FIELDS, 'Span.Link');
    }
  }
  r.leave(parent);
  return link;
}

function decodeStatusInto(r: ProtoReader, out: OtlpStatus): void {
  const parent = r.enter();
  while (r.pos < r.limit) {
    const tag = r.readTag();
    switch (tag) {
      case STATUS_MESSAGE:
        out.message = r.readString();
        break;
      case STATUS_CODE:
        out.code = r.readUint32() | 0;
        break; // enum = int32
      default:
        r.skipUnknown(tag, STATUS_FIELDS, 'Status');
    }
  }
  r.leave(parent);
}
