import { END_OF_STREAM } from './ipcMessage.js';
import { SPANS_ARROW_SCHEMA_MESSAGE } from './spansArrowSchema.js';

/**
 * A whole ArrowStream of span record batches as parts to write one after
 * another: the schema message, the messages (from encodeSpanRecordBatch) and
 * the end-of-stream marker. Nothing is copied.
 */
export function spansArrowStream(messages: readonly Uint8Array[]): Uint8Array[] {
  return [SPANS_ARROW_SCHEMA_MESSAGE, ...messages, END_OF_STREAM];
}
