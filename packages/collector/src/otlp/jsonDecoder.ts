import { OtlpDecodeError } from './OtlpDecodeError.js';
import {
  at,
  field,
  isObject,
  readArray,
  readEnum,
  readHexId,
  readKeyValues,
  readObject,
  readString,
  readUint32,
  readUint64,
} from './jsonValues.js';
import type { JsonObject } from './jsonValues.js';
import type {
  OtlpEvent,
  OtlpLink,
  OtlpResourceSpans,
  OtlpScope,
  OtlpScopeSpans,
  OtlpSpan,
  OtlpStatus,
  OtlpTraceRequest,
} from './types.js';

/*
 * OTLP/JSON ExportTraceServiceRequest decoder. Per the OTLP spec: field names
 * are lowerCamelCase (the original snake_case names are accepted too), trace
 * and span ids are hex (any case), int64/fixed64 values are decimal strings
 * (JSON numbers accepted), enums are integers (enum names accepted), bytes
 * are base64. Unknown fields are ignored. Errors name the offending field,
 * e.g. `resourceSpans[0].scopeSpans[1].spans[3].traceId`.
 */

const SPAN_KIND: Readonly<Record<string, number>> = {
  SPAN_KIND_UNSPECIFIED: 0,
  SPAN_KIND_INTERNAL: 1,
  SPAN_KIND_SERVER: 2,
  SPAN_KIND_CLIENT: 3,
  SPAN_KIND_PRODUCER: 4,
  SPAN_KIND_CONSUMER: 5,
};

const STATUS_CODE: Readonly<Record<string, number>> = {
  STATUS_CODE_UNSET: 0,
  STATUS_CODE_OK: 1,
  STATUS_CODE_ERROR: 2,
};

// Non-fatal: invalid UTF-8 becomes U+FFFD (as in the protobuf decoder); a leading BOM is dropped.
const utf8 = new TextDecoder('utf-8');

/**
 * Decodes an OTLP/JSON ExportTraceServiceRequest body.
 * @throws OtlpDecodeError on invalid JSON or a field of the wrong type, with its path.
 */
export function decodeTraceRequestJson(body: string | Uint8Array): OtlpTraceRequest {
  const text = typeof body === 'string' ? body : utf8.decode(body);
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch (err) {
    throw new OtlpDecodeError({
      message: `invalid JSON: ${err instanceof Error ? err.message : String(err)}`,
      cause: err,
    });
  }
  if (!isObject(root)) throw new OtlpDecodeError({ message: 'the request body must be a JSON object' });
  const items = readArray(field(root, 'resourceSpans', 'resource_spans'), 'resourceSpans');
  const resourceSpans = new Array<OtlpResourceSpans>(items.length);
  for (let i = 0; i < items.length; i++) resourceSpans[i] = decodeResourceSpans(items[i], `resourceSpans[${i}]`);
  return { resourceSpans };
}

/** An element of a repeated message field: must be an object (null reads as an empty message). */
function element(v: unknown, path: string): JsonObject {
  return readObject(v, path) ?? {};
}

function decodeResourceSpans(v: unknown, path: string): OtlpResourceSpans {
  const o = element(v, path);
  const resourcePath = at(path, 'resource');
  const resource = readObject(field(o, 'resource'), resourcePath) ?? {};
  const items = readArray(field(o, 'scopeSpans', 'scope_spans'), at(path, 'scopeSpans'));
  const scopeSpans = new Array<OtlpScopeSpans>(items.length);
  for (let i = 0; i < items.length; i++) scopeSpans[i] = decodeScopeSpans(items[i], `${path}.scopeSpans[${i}]`);
  return {
    resource: {
      attributes: readKeyValues(field(resource, 'attributes'), at(resourcePath, 'attributes'), 0),
      droppedAttributesCount: readUint32(
        field(resource, 'droppedAttributesCount', 'dropped_attributes_count'),
        resourcePath,
        'droppedAttributesCount',
      ),
    },
    scopeSpans,
    schemaUrl: readString(field(o, 'schemaUrl', 'schema_url'), path, 'schemaUrl'),
  };
}

function decodeScopeSpans(v: unknown, path: string): OtlpScopeSpans {
  const o = element(v, path);
  const items = readArray(field(o, 'spans'), at(path, 'spans'));
  const spans = new Array<OtlpSpan>(items.length);
  for (let i = 0; i < items.length; i++) spans[i] = decodeSpan(items[i], `${path}.spans[${i}]`);
  return {
    scope: decodeScope(field(o, 'scope'), at(path, 'scope')),
    spans,
    schemaUrl: readString(field(o, 'schemaUrl', 'schema_url'), path, 'schemaUrl'),
  };
}

function decodeScope(v: unknown, path: string): OtlpScope {
  const o = readObject(v, path) ?? {};
  return {
    name: readString(field(o, 'name'), path, 'name'),
    version: readString(field(o, 'version'), path, 'version'),
    attributes: readKeyValues(field(o, 'attributes'), at(path, 'attributes'), 0),
    droppedAttributesCount: readUint32(
      field(o, 'droppedAttributesCount', 'dropped_attributes_count'),
      path,
      'droppedAttributesCount',
    ),
  };
}

function decodeSpan(v: unknown, path: string): OtlpSpan {
  const o = element(v, path);
  const events = readArray(field(o, 'events'), at(path, 'events'));
  const links = readArray(field(o, 'links'), at(path, 'links'));
  return {
    traceId: readHexId(field(o, 'traceId', 'trace_id'), 16, path, 'traceId'),
    spanId: readHexId(field(o, 'spanId', 'span_id'), 8, path, 'spanId'),
    traceState: readString(field(o, 'traceState', 'trace_state'), path, 'traceState'),
    parentSpanId: readHexId(field(o, 'parentSpanId', 'parent_span_id'), 8, path, 'parentSpanId'),
    flags: readUint32(field(o, 'flags'), path, 'flags'),
    name: readString(field(o, 'name'), path, 'name'),
    kind: readEnum(field(o, 'kind'), SPAN_KIND, path, 'kind'),
    startTimeUnixNano: readUint64(field(o, 'startTimeUnixNano', 'start_time_unix_nano'), path, 'startTimeUnixNano'),
    endTimeUnixNano: readUint64(field(o, 'endTimeUnixNano', 'end_time_unix_nano'), path, 'endTimeUnixNano'),
    attributes: readKeyValues(field(o, 'attributes'), at(path, 'attributes'), 0),
    droppedAttributesCount: readUint32(
      field(o, 'droppedAttributesCount', 'dropped_attributes_count'),
      path,
      'droppedAttributesCount',
    ),
    events: events.map((e, i) => decodeEvent(e, `${path}.events[${i}]`)),
    droppedEventsCount: readUint32(field(o, 'droppedEventsCount', 'dropped_events_count'), path, 'droppedEventsCount'),
    links: links.map((l, i) => decodeLink(l, `${path}.links[${i}]`)),
    droppedLinksCount: readUint32(field(o, 'droppedLinksCount', 'dropped_links_count'), path, 'droppedLinksCount'),
    status: decodeStatus(field(o, 'status'), at(path, 'status')),
  };
}

function decodeEvent(v: unknown, path: string): OtlpEvent {
  const o = element(v, path);
  return {
    timeUnixNano: readUint64(field(o, 'timeUnixNano', 'time_unix_nano'), path, 'timeUnixNano'),
    name: readString(field(o, 'name'), path, 'name'),
    attributes: readKeyValues(field(o, 'attributes'), at(path, 'attributes'), 0),
    droppedAttributesCount: readUint32(
      field(o, 'droppedAttributesCount', 'dropped_attributes_count'),
      path,
      'droppedAttributesCount',
    ),
  };
}

function decodeLink(v: unknown, path: string): OtlpLink {
  const o = element(v, path);
  return {
    traceId: readHexId(field(o, 'traceId', 'trace_id'), 16, path, 'traceId'),
    spanId: readHexId(field(o, 'spanId', 'span_id'), 8, path, 'spanId'),
    traceState: readString(field(o, 'traceState', 'trace_state'), path, 'traceState'),
    attributes: readKeyValues(field(o, 'attributes'), at(path, 'attributes'), 0),
    droppedAttributesCount: readUint32(
      field(o, 'droppedAttributesCount', 'dropped_attributes_count'),
      path,
      'droppedAttributesCount',
    ),
    flags: readUint32(field(o, 'flags'), path, 'flags'),
  };
}

function decodeStatus(v: unknown, path: string): OtlpStatus {
  const o = readObject(v, path) ?? {};
  return {
    code: readEnum(field(o, 'code'), STATUS_CODE, path, 'code'),
    message: readString(field(o, 'message'), path, 'message'),
  };
}
