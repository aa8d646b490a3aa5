import { endianness } from 'node:os';
import type { SpanRecord } from '../SpanRecord.js';
import { BatchParts } from './columns.js';
import { RecordBatchWriter } from './RecordBatchWriter.js';
import { SpanColumns } from './SpanColumns.js';
import { SPANS_ARROW_LAYOUT } from './spansArrowSchema.js';

// invariant: every supported host (x64, arm64) is little-endian (a plain Error)
if (endianness() !== 'LE')
  throw new Error('the Arrow span encoder writes typed arrays as little-endian and needs a little-endian host');

/** Buffers a batch grew beyond this are let go of after it. */
const KEEP_BYTES = 32 << 20;

let columns: SpanColumns | undefined;
let writer: RecordBatchWriter | undefined;
const parts = new BatchParts();

/**
 * Encodes spans as one encapsulated Arrow IPC RecordBatch message of the
 * spans schema (SPANS_ARROW_SCHEMA_MESSAGE), with exactly the values
 * toSpanInsertRow gives the JSONEachRow path. The result owns its whole
 * ArrayBuffer (offset 0, exact length), so it can be transferred between
 * threads. Column buffers are reused between calls (synchronous, so safe
 * within one thread).
 */
export function encodeSpanRecordBatch(spans: readonly SpanRecord[]): Uint8Array {
  columns ??= new SpanColumns();
  writer ??= new RecordBatchWriter(SPANS_ARROW_LAYOUT.nodes, SPANS_ARROW_LAYOUT.buffers);
  columns.reset();
  parts.reset();
  try {
    for (let i = 0; i < spans.length; i++) columns.add(spans[i]!);
    columns.emit(parts);
    return writer.write(spans.length, parts);
  } finally {
    parts.reset();
    columns.trim(KEEP_BYTES);
  }
}

/**
 * Columns a caller fills row by row (the collector's fused OTLP decoder),
 * then one record batch message of them. One per thread; `begin` resets it.
 */
export class SpanBatchEncoder {
  readonly columns = new SpanColumns();
  private readonly writer = new RecordBatchWriter(SPANS_ARROW_LAYOUT.nodes, SPANS_ARROW_LAYOUT.buffers);
  private readonly parts = new BatchParts();

  begin(): SpanColumns {
    this.columns.reset();
    return this.columns;
  }

  /** The rows written since `begin`, as one message (see encodeSpanRecordBatch). */
  finish(): Uint8Array {
    this.parts.reset();
    try {
      this.columns.emit(this.parts);
      return this.writer.write(this.columns.length, this.parts);
    } finally {
      this.parts.reset();
      this.columns.trim(KEEP_BYTES);
    }
  }
}
