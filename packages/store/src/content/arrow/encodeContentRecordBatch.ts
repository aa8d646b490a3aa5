import type { SpanContentRecord } from '../SpanContentRecord.js';
import { storedHalfParts } from '../storedHalf.js';
import {
  BatchParts,
  BoolColumn,
  Int64Column,
  Uint32Column,
  Uint64Column,
  Utf8Column,
} from '../../spans/arrow/columns.js';
import { RecordBatchWriter } from '../../spans/arrow/RecordBatchWriter.js';
import { CONTENT_ARROW_LAYOUT } from './contentArrowSchema.js';

/** Buffers a batch grew beyond this are let go of after it (content runs up to 1 MiB a span). */
const KEEP_BYTES = 32 << 20;

/** The span_content columns, reused from batch to batch (one set per thread). */
class ContentColumns {
  readonly projectId = new Utf8Column();
  readonly traceId = new Utf8Column();
  readonly spanId = new Utf8Column();
  readonly startTime = new Int64Column();
  readonly input = new Utf8Column();
  readonly output = new Utf8Column();
  readonly truncated = new BoolColumn();
  readonly originalBytes = new Uint64Column();
  readonly capture = new Utf8Column();
  readonly redactions = new Uint32Column();
  /** In CONTENT_ARROW_FIELDS order. */
  readonly all = [
    this.projectId, this.traceId, this.spanId, this.startTime, this.input, this.output, this.truncated,
    this.originalBytes, this.capture, this.redactions,
  ]; // prettier-ignore

  reset(): void {
    for (const c of this.all) c.reset();
  }
  add(r: SpanContentRecord): void {
    this.projectId.push(r.projectId);
    this.traceId.push(r.traceId);
    this.spanId.push(r.spanId);
    this.startTime.push(r.startTimeUnixNano);
    this.input.pushParts(storedHalfParts(r.input));
    this.output.pushParts(storedHalfParts(r.output));
    this.truncated.push(r.truncated);
    this.originalBytes.push(r.originalBytes);
    this.capture.push(r.capture);
    this.redactions.push(r.redactions);
  }
  emit(parts: BatchParts): void {
    for (const c of this.all) c.emit(parts);
  }
  trim(maxBytes: number): void {
    this.input.trim(maxBytes);
    this.output.trim(maxBytes);
  }
}

let columns: ContentColumns | undefined;
let writer: RecordBatchWriter | undefined;
const parts = new BatchParts();

/**
 * Encodes content records as one encapsulated Arrow IPC RecordBatch message
 * of the span_content schema (CONTENT_ARROW_SCHEMA_MESSAGE). Each half is
 * written as its stored text (storedHalfText: a message list kept verbatim
 * goes in as received). The result owns its whole ArrayBuffer, so it can be
 * transferred between threads.
 */
export function encodeContentRecordBatch(records: readonly SpanContentRecord[]): Uint8Array {
  columns ??= new ContentColumns();
  writer ??= new RecordBatchWriter(CONTENT_ARROW_LAYOUT.nodes, CONTENT_ARROW_LAYOUT.buffers);
  columns.reset();
  parts.reset();
  try {
    for (let i = 0; i < records.length; i++) columns.add(records[i]!);
    columns.emit(parts);
    return writer.write(records.length, parts);
  } finally {
    parts.reset();
    columns.trim(KEEP_BYTES);
  }
}
