export { Collector, DEFAULT_BACKLOG_HOLD_SPANS } from './ingest/Collector.js';
export type {
  CollectorLimits,
  CollectorObservers,
  CollectorOptions,
  CollectorPolicy,
  CollectorSpoolOptions,
  CollectorStorageOptions,
  InsertSpanBatches,
  RequestFacts,
} from './ingest/CollectorOptions.js';
export type { OtlpGrpcServer } from './grpc/otlpGrpcServer.js';
export { readBody, type BodyPieces } from './http/readBody.js';
export { RateLimitedError } from './ingest/RateLimitedError.js';
export type { ExportDone, ExportProgress, ExportStages, IngestedExport } from './ingest/ExportDone.js';
export { ExportProcessor } from './ingest/ExportProcessor.js';
export type { ExportProcessorOptions, ProcessTiming } from './ingest/ExportProcessor.js';
export { processExport } from './ingest/processExport.js';
export { SpareCopies } from './ingest/SpareCopies.js';
export type { ExportJob, ProcessedExport } from './ingest/processExport.js';
export {
  decodeExportPayload,
  encodeExportPayload,
  convertV1Payload,
  convertV2Payload,
  SPOOL_PAYLOAD_CONVERTERS,
  SPOOL_PAYLOAD_VERSION,
} from './ingest/exportPayload.js';
export type { ExportPayload } from './ingest/exportPayload.js';
export { Spool, DEFAULT_SPOOL_MAX_BYTES, DEFAULT_SPOOL_SEGMENT_BYTES } from './spool/Spool.js';
export { DEFAULT_MAX_BODY_BYTES } from './otlp/limits.js';
export type { SpoolOptions, SpoolBatch, SpoolRecovery } from './spool/Spool.js';
export { SpoolDrainer, DEFAULT_DRAIN_BATCH_SPANS } from './spool/SpoolDrainer.js';
export type { SpoolDrainerOptions, StoreBatch, SpoolRecordConverter } from './spool/SpoolDrainer.js';
export { SpoolVersionError } from './spool/SpoolVersionError.js';
export { SpoolFullError } from './spool/SpoolFullError.js';
export { lockSpoolDir } from './spool/spoolLock.js';
export type { SpoolDirLock } from './spool/spoolLock.js';
export { LiveLoopDetector } from './loops/LiveLoopDetector.js';
export type { LiveLoopEvent, LiveLoopKind, LiveLoopDetectorOptions } from './loops/LiveLoopDetector.js';
export { loopSignalsOf } from './loops/loopSignals.js';
export type { LoopSignals, LoopStep } from './loops/loopSignals.js';
export { normaliseRequest } from './normalise/normaliseRequest.js';
export type { NormaliseResult, NormaliseOptions, RejectCounts, ContentCounts } from './normalise/normaliseRequest.js';
export { splitContent } from './normalise/extractContent.js';
export type { SplitSpan } from './normalise/extractContent.js';
export { DEFAULT_SPAN_LIMITS } from './normalise/spanLimits.js';
export type { LimitCounts, SpanLimits } from './normalise/spanLimits.js';
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
