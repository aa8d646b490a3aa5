/**
 * The store's row encoders, without the storage engine: safe to import from
 * worker threads (the main entry loads chDB, whose engine must live in one
 * thread of the process only — a second load in a worker hangs its queries).
 */
export { encodeSpanRecordBatch, SpanBatchEncoder } from './spans/arrow/encodeSpanRecordBatch.js';
export type { SpanColumns, Utf8MapColumn, KeyOrderCheck } from './spans/arrow/SpanColumns.js';
export type { Utf8Column } from './spans/arrow/columns.js';
export { attributeText, attributeType } from './attributeValue.js';
export { spansArrowStream } from './spans/arrow/spansArrowStream.js';
export { SPANS_ARROW_SCHEMA_VERSION } from './spans/arrow/spansArrowSchema.js';
export type { SpanRecord } from './spans/SpanRecord.js';
export type { AttributeValue } from './attributeValue.js';
export type { SpanContentRecord, ContentHalf, ContentMessage } from './content/SpanContentRecord.js';
export { encodeContentRecordBatch } from './content/arrow/encodeContentRecordBatch.js';
export {
  CONTENT_ARROW_SCHEMA_MESSAGE,
  CONTENT_ARROW_SCHEMA_VERSION,
  CONTENT_ARROW_COLUMNS,
} from './content/arrow/contentArrowSchema.js';
export { storedHalfText, readStoredHalf, halfBytes } from './content/storedHalf.js';
export { addMessages, addMessagesJson, messageOf, parseJson, partsText } from './content/contentMessages.js';
export type { VerbatimMessages } from './content/SpanContentRecord.js';
export {
  computeRequestFacts,
  noRequestFacts,
  requestFactBuffers,
  requestFactBytes,
  type RequestFactRows,
  type RequestRunFacts,
} from './facts/incremental/requestFacts.js';
export type { TableRows, FactRowBytes, RunRows } from './facts/incremental/factRowBytes.js';
