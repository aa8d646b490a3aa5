import { decodeKeyValue } from './protoAnyValue.js';
import { ProtoReader } from './protoReader.js';
import {
  EVENT_ATTRIBUTES,
  EVENT_DROPPED,
  EVENT_FIELDS,
  EVENT_NAME,
  EVENT_TIME,
  LINK_ATTRIBUTES,
  LINK_DROPPED,
  LINK_FIELDS,
  LINK_FLAGS,
  LINK_SPAN_ID,
  LINK_TRACE_ID,
  LINK_TRACE_STATE,
  REQ_FIELDS,
  REQ_RESOURCE_SPANS,
  RES_ATTRIBUTES,
  RES_DROPPED,
  RES_FIELDS,
  RS_FIELDS,
  RS_RESOURCE,
  RS_SCHEMA_URL,
  RS_SCOPE_SPANS,
  SCOPE_ATTRIBUTES,
  SCOPE_DROPPED,
  SCOPE_FIELDS,
  SCOPE_NAME,
  SCOPE_VERSION,
  SPAN_ATTRIBUTES,
  SPAN_DROPPED_ATTRIBUTES,
  SPAN_DROPPED_EVENTS,
  SPAN_DROPPED_LINKS,
  SPAN_END,
  SPAN_EVENTS,
  SPAN_FIELDS,
  SPAN_FLAGS,
  SPAN_KIND,
  SPAN_LINKS,
  SPAN_NAME,
  SPAN_PARENT_SPAN_ID,
  SPAN_SPAN_ID,
  SPAN_START,
  SPAN_STATUS,
  SPAN_TRACE_ID,
  SPAN_TRACE_STATE,
  SS_FIELDS,
  SS_SCHEMA_URL,
  SS_SCOPE,
  SS_SPANS,
  STATUS_CODE,
  STATUS_FIELDS,
  STATUS_MESSAGE,
} from './otlpFields.js';
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

// Status (field 1 is reserved)

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
