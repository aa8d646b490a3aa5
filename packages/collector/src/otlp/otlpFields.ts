import { WireType, fieldTag, knownFields } from './protoWire.js';

/*
 * The OTLP trace request's protobuf tags (field number << 3 | wire type) and
 * known-field masks, by message (field numbers from opentelemetry-proto
 * trace.proto / common.proto / resource.proto), for the object decoder
 * (protoDecoder.ts, protoAnyValue.ts) and the fused one (src/fused/) alike.
 */

const { VARINT, I64, LEN, I32 } = WireType;

// ExportTraceServiceRequest
export const REQ_RESOURCE_SPANS = fieldTag(1, LEN);
export const REQ_FIELDS = knownFields(1);

// ResourceSpans
export const RS_RESOURCE = fieldTag(1, LEN);
export const RS_SCOPE_SPANS = fieldTag(2, LEN);
export const RS_SCHEMA_URL = fieldTag(3, LEN);
export const RS_FIELDS = knownFields(1, 2, 3);

// Resource
export const RES_ATTRIBUTES = fieldTag(1, LEN);
export const RES_DROPPED = fieldTag(2, VARINT);
export const RES_FIELDS = knownFields(1, 2);

// ScopeSpans
export const SS_SCOPE = fieldTag(1, LEN);
export const SS_SPANS = fieldTag(2, LEN);
export const SS_SCHEMA_URL = fieldTag(3, LEN);
export const SS_FIELDS = knownFields(1, 2, 3);

// InstrumentationScope
export const SCOPE_NAME = fieldTag(1, LEN);
export const SCOPE_VERSION = fieldTag(2, LEN);
export const SCOPE_ATTRIBUTES = fieldTag(3, LEN);
export const SCOPE_DROPPED = fieldTag(4, VARINT);
export const SCOPE_FIELDS = knownFields(1, 2, 3, 4);

// Span
export const SPAN_TRACE_ID = fieldTag(1, LEN);
export const SPAN_SPAN_ID = fieldTag(2, LEN);
export const SPAN_TRACE_STATE = fieldTag(3, LEN);
export const SPAN_PARENT_SPAN_ID = fieldTag(4, LEN);
export const SPAN_NAME = fieldTag(5, LEN);
export const SPAN_KIND = fieldTag(6, VARINT);
export const SPAN_START = fieldTag(7, I64);
export const SPAN_END = fieldTag(8, I64);
export const SPAN_ATTRIBUTES = fieldTag(9, LEN);
export const SPAN_DROPPED_ATTRIBUTES = fieldTag(10, VARINT);
export const SPAN_EVENTS = fieldTag(11, LEN);
export const SPAN_DROPPED_EVENTS = fieldTag(12, VARINT);
export const SPAN_LINKS = fieldTag(13, LEN);
export const SPAN_DROPPED_LINKS = fieldTag(14, VARINT);
export const SPAN_STATUS = fieldTag(15, LEN);
export const SPAN_FLAGS = fieldTag(16, I32);
export const SPAN_FIELDS = knownFields(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16);

// Span.Event
export const EVENT_TIME = fieldTag(1, I64);
export const EVENT_NAME = fieldTag(2, LEN);
export const EVENT_ATTRIBUTES = fieldTag(3, LEN);
export const EVENT_DROPPED = fieldTag(4, VARINT);
export const EVENT_FIELDS = knownFields(1, 2, 3, 4);

// Span.Link
export const LINK_TRACE_ID = fieldTag(1, LEN);
export const LINK_SPAN_ID = fieldTag(2, LEN);
export const LINK_TRACE_STATE = fieldTag(3, LEN);
export const LINK_ATTRIBUTES = fieldTag(4, LEN);
export const LINK_DROPPED = fieldTag(5, VARINT);
export const LINK_FLAGS = fieldTag(6, I32);
export const LINK_FIELDS = knownFields(1, 2, 3, 4, 5, 6);

// Status
export const STATUS_MESSAGE = fieldTag(2, LEN);
export const STATUS_CODE = fieldTag(3, VARINT);
export const STATUS_FIELDS = knownFields(2, 3);

// KeyValue
export const KV_KEY = fieldTag(1, LEN);
export const KV_VALUE = fieldTag(2, LEN);
export const KV_FIELDS = knownFields(1, 2);

// AnyValue
export const AV_STRING = fieldTag(1, LEN);
export const AV_BOOL = fieldTag(2, VARINT);
export const AV_INT = fieldTag(3, VARINT);
export const AV_DOUBLE = fieldTag(4, I64);
export const AV_ARRAY = fieldTag(5, LEN);
export const AV_KVLIST = fieldTag(6, LEN);
export const AV_BYTES = fieldTag(7, LEN);
export const AV_FIELDS = knownFields(1, 2, 3, 4, 5, 6, 7);

// ArrayValue
export const LIST_VALUES = fieldTag(1, LEN);
export const LIST_FIELDS = knownFields(1);
