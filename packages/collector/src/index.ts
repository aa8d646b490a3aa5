export { createOtlpHttpHandler } from './http/otlpHttpHandler.js';
export type { OtlpHttpHandlerOptions } from './http/otlpHttpHandler.js';
export { readBody } from './http/readBody.js';
export { SpanWriter } from './writer/SpanWriter.js';
export type { SpanWriterOptions, InsertBatch } from './writer/SpanWriter.js';
export { normaliseRequest } from './normalise/normaliseRequest.js';
export type { NormaliseResult, NormaliseOptions } from './normalise/normaliseRequest.js';
export { DEFAULT_SPAN_LIMITS } from './normalise/spanLimits.js';
export type { SpanLimits } from './normalise/spanLimits.js';
export { decodeTraceRequestProto } from './otlp/protoDecoder.js';
export { decodeTraceRequestJson } from './otlp/jsonDecoder.js';
export { OtlpDecodeError } from './otlp/OtlpDecodeError.js';
export { encodeExportResponse, encodeRpcStatus } from './otlp/responses.js';
export type { OtlpEncoding } from './otlp/responses.js';
export type {
  AnyValue,
  KeyValue,
  OtlpKvList,
  OtlpEvent,
  OtlpLink,
  OtlpResource,
  OtlpResourceSpans,
  OtlpScope,
  OtlpScopeSpans,
  OtlpSpan,
  OtlpStatus,
  OtlpTraceRequest,
} from './otlp/types.js';
