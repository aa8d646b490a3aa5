import type { BatchParts } from './columns.js';
import { fb } from './flatbuffer.js';
import { encapsulateMessage, MESSAGE_HEADER, MESSAGE_PREFIX } from './ipcMessage.js';

const TWO_32 = 4294967296;
/** Buffers up to this many bytes are copied by a loop: cheaper than a view and a native copy. */
const SMALL_COPY = 64;

function setUint64(view: DataView, at: number, v: number): void {
  view.setUint32(at, v % TWO_32, true);
  view.setUint32(at + 4, Math.floor(v / TWO_32), true);
}

/**
 * Writes encapsulated RecordBatch messages for one fixed schema. The
 * metadata flatbuffer has the same shape for every batch (the counts of
 * field nodes and buffers are fixed by the schema), so it is built once as a
 * template and each batch only patches its numbers in: the row count, each
 * node's length and null count, each buffer's offset and length, and the
 * body length. Body buffers start on 8-byte boundaries, zero-padded.
 */
export class RecordBatchWriter {
  private readonly template: Uint8Array;
  private readonly lengthAt: number;
  private readonly nodesAt: number;
  private readonly buffersAt: number;
  private readonly bodyLengthAt: number;

  constructor(
    private readonly nodeCount: number,
    private readonly bufferCount: number,
  ) {
    const length = fb.i64(0);
    const nodes = fb.int64Pairs(nodeCount);
    const buffers = fb.int64Pairs(bufferCount);
    // RecordBatch: length, nodes, buffers (no compression, no variadic counts)
    const { bytes, bodyLengthAt } = encapsulateMessage(MESSAGE_HEADER.recordBatch, fb.table(length, nodes, buffers), 0);
    // invariant: the encoder records every position it writes (a plain Error, never a user's error)
    if (length.at === undefined || nodes.at === undefined || buffers.at === undefined)
      throw new Error('record batch template: positions not recorded');
    this.template = bytes;
    this.lengthAt = length.at;
    this.nodesAt = nodes.at;
    this.buffersAt = buffers.at;
    this.bodyLengthAt = bodyLengthAt;
  }

  /** One message (metadata + body) in a fresh, exactly sized, transferable Uint8Array. */
  write(length: number, parts: BatchParts): Uint8Array {
    const { sources, lengths } = parts;
    if (parts.nodes.length !== 2 * this.nodeCount || lengths.length !== this.bufferCount) {
      // invariant: parts come from the same schema as the template (a plain Error)
      throw new Error(
        `record batch: expected ${this.nodeCount} nodes and ${this.bufferCount} buffers, got ${parts.nodes.length / 2} and ${lengths.length}`,
      );
    }
    let body = 0;
    for (let i = 0; i < lengths.length; i++) body += (lengths[i]! + 7) & ~7;
    const head = this.template.length;
    const size = head + body;
    // small: zeroed is as cheap; large: not zero-filled (every byte is written below); never pooled, so the ArrayBuffer is its own
    const out: Uint8Array = size < 1 << 16 ? new Uint8Array(size) : Buffer.allocUnsafeSlow(size);
    out.set(this.template);
    const view = new DataView(out.buffer);
    setUint64(view, this.lengthAt, length);
    setUint64(view, this.bodyLengthAt, body);
    for (let i = 0; i < parts.nodes.length; i++) setUint64(view, this.nodesAt + 8 * i, parts.nodes[i]!);
    let at = head;
    for (let i = 0; i < lengths.length; i++) {
      const n = lengths[i]!;
      setUint64(view, this.buffersAt + 16 * i, at - head);
      setUint64(view, this.buffersAt + 16 * i + 8, n);
      const source = sources[i]!;
      if (n <= SMALL_COPY) {
        for (let k = 0; k < n; k++) out[at + k] = source[k]!;
      } else {
        out.set(n === source.length ? source : source.subarray(0, n), at);
      }
      const padded = (n + 7) & ~7;
      for (let k = n; k < padded; k++) out[at + k] = 0;
      at += padded;
    }
    return out;
  }

  /**
   * Where the body buffers of a message this writer wrote sit: offset (from
   * the message's first byte) and length of buffer i at [2i] and [2i + 1].
   * Undefined when the message's metadata is not this writer's (another
   * schema or writer): a reader then has nothing it can trust.
   */
  bufferPositions(message: Uint8Array): Float64Array | undefined {
    const head = this.template.length;
    if (message.length < head) return undefined;
    const view = new DataView(message.buffer, message.byteOffset, message.byteLength);
    // the template's continuation marker and metadata length (the flatbuffer's shape follows from them)
    if (view.getUint32(0, true) !== 0xffffffff || view.getInt32(4, true) !== head - MESSAGE_PREFIX) return undefined;
    const out = new Float64Array(2 * this.bufferCount);
    let end = head;
    for (let i = 0; i < this.bufferCount; i++) {
      const offset = head + getUint64(view, this.buffersAt + 16 * i);
      const length = getUint64(view, this.buffersAt + 16 * i + 8);
      if (offset < end || offset + length > message.length) return undefined;
      out[2 * i] = offset;
      out[2 * i + 1] = length;
      end = offset + length;
    }
    return out;
  }
}

function getUint64(view: DataView, at: number): number {
  return view.getUint32(at, true) + view.getUint32(at + 4, true) * TWO_32;
}
