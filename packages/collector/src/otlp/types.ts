/**
 * The decoded form of an OTLP ExportTraceServiceRequest, shared by the
 * protobuf and JSON decoders. Ids are lowercase hex ('' when absent),
 * timestamps are bigint nanoseconds (a double would lose nanoseconds).
 */

/**
 * An OTLP AnyValue as a plain JS value: string, boolean, bigint (int64),
 * number (double), Uint8Array (bytes), AnyValue[] (array), OtlpKvList
 * (kvlist), or null (an AnyValue with no value set).
 */
export type AnyValue = string | boolean | bigint | number | Uint8Array | AnyValue[] | OtlpKvList | null;

export interface OtlpKvList {
  kvlist: KeyValue[];
}

export interface KeyValue {
  key: string;
  value: AnyValue;
}

export interface OtlpStatus {
  /** 0 UNSET, 1 OK, 2 ERROR. */
  code: number;
  message: string;
}

export interface OtlpEvent {
  timeUnixNano: bigint;
  name: string;
  attributes: KeyValue[];
  droppedAttributesCount: number;
}

export interface OtlpLink {
  traceId: string;
  spanId: string;
  traceState: string;
  attributes: KeyValue[];
  droppedAttributesCount: number;
  flags: number;
}

export interface OtlpSpan {
  traceId: string;
  spanId: string;
  traceState: string;
  parentSpanId: string;
  flags: number;
  name: string;
  /** 0 UNSPECIFIED, 1 INTERNAL, 2 SERVER, 3 CLIENT, 4 PRODUCER, 5 CONSUMER. */
  kind: number;
  startTimeUnixNano: bigint;
  endTimeUnixNano: bigint;
  attributes: KeyValue[];
  droppedAttributesCount: number;
  events: OtlpEvent[];
  droppedEventsCount: number;
  links: OtlpLink[];
  droppedLinksCount: number;
  status: OtlpStatus;
}

export interface OtlpScope {
  name: string;
  version: string;
  attributes: KeyValue[];
  droppedAttributesCount: number;
}

export interface OtlpScopeSpans {
  scope: OtlpScope;
  spans: OtlpSpan[];
  schemaUrl: string;
}

export interface OtlpResource {
  attributes: KeyValue[];
  droppedAttributesCount: number;
}

export interface OtlpResourceSpans {
  resource: OtlpResource;
  scopeSpans: OtlpScopeSpans[];
  schemaUrl: string;
}

export interface OtlpTraceRequest {
  resourceSpans: OtlpResourceSpans[];
}
