/**
 * Growable Arrow column buffers, reused from batch to batch. Each column
 * appends values straight into typed arrays and, when the batch is done,
 * `emit`s its field node(s) and buffers in the schema's depth-first order.
 * Assumes a little-endian host (Arrow's and every platform Node runs on).
 */

/**
 * Field nodes and body buffers of one record batch, in schema order. A buffer
 * is the first `length` bytes of a column's storage (its bytes seen as a
 * Uint8Array, kept by the column): no view is made per batch.
 */
export class BatchParts {
  /** Pairs of (length, null count). */
  readonly nodes: number[] = [];
  readonly sources: Uint8Array[] = [];
  readonly lengths: number[] = [];

  reset(): void {
    this.nodes.length = 0;
    this.sources.length = 0;
    this.lengths.length = 0;
  }
  node(length: number, nullCount: number): void {
    this.nodes.push(length, nullCount);
  }
  buffer(source: Uint8Array, length: number): void {
    this.sources.push(source);
    this.lengths.push(length);
  }
  /** A validity buffer left out: no nulls. */
  noValidity(): void {
    this.buffer(EMPTY, 0);
  }
}

const EMPTY = new Uint8Array(0);

function bytesOf(a: Int32Array | Uint16Array | Uint32Array | Float64Array | BigInt64Array): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

interface NodeBuffer extends Buffer {
  /** Node's native UTF-8 writer behind Buffer#write, without its argument juggling. */
  utf8Write(s: string, offset: number): number;
}

function allocData(size: number): NodeBuffer {
  return Buffer.allocUnsafe(size) as NodeBuffer;
}

/** Strings shorter than this are copied by a JS loop while ASCII; a native call costs more than it saves. */
const NATIVE_FROM = 32;

function capacity(current: number, need: number): number {
  let size = current * 2;
  while (size < need) size *= 2;
  return size;
}

/** Variable-length UTF-8 strings: int32 offsets and one data buffer. */
export class Utf8Column {
  private offsets = new Int32Array(1024);
  private offsetBytes = bytesOf(this.offsets);
  private data = allocData(1 << 16);
  private count = 0;
  private end = 0;

  reset(): void {
    this.count = 0;
    this.end = 0;
  }

  private growOffsets(need: number): void {
    const next = new Int32Array(capacity(this.offsets.length, need));
    next.set(this.offsets.subarray(0, this.count + 1));
    this.offsets = next;
    this.offsetBytes = bytesOf(next);
  }

  push(s: string): void {
    const n = s.length;
    if (this.count + 2 > this.offsets.length) this.growOffsets(this.count + 2);
    let pos = this.end;
    if (pos + 3 * n > this.data.length) {
      const next = allocData(capacity(this.data.length, pos + 3 * n));
      this.data.copy(next, 0, 0, pos);
      this.data = next;
    }
    const data = this.data;
    if (n < NATIVE_FROM) {
      // bail out to the native writer on the first non-ASCII unit
      let i = 0;
      for (; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) break;
        data[pos + i] = c;
      }
      pos += i === n ? n : data.utf8Write(s, pos);
    } else {
      pos += data.utf8Write(s, pos);
    }
    this.end = pos;
    this.offsets[++this.count] = pos;
  }

  /**
   * Appends bytes [start, end) of `src` as one value, unchecked: the caller
   * knows them to be valid UTF-8 (the fused OTLP decoder copies strings of
   * the request body this way, without decoding them).
   */
  pushBytes(src: Uint8Array, start: number, end: number): void {
    const n = end - start;
    if (this.count + 2 > this.offsets.length) this.growOffsets(this.count + 2);
    const pos = this.end;
    if (pos + n > this.data.length) {
      const next = allocData(capacity(this.data.length, pos + n));
      this.data.copy(next, 0, 0, pos);
      this.data = next;
    }
    const data = this.data;
    if (n < NATIVE_FROM) for (let i = 0; i < n; i++) data[pos + i] = src[start + i]!;
    else data.set(src.subarray(start, end), pos);
    this.end = pos + n;
    this.offsets[++this.count] = pos + n;
  }

  /**
   * Appends one value written as the concatenation of `parts` (no joined
   * string is made); a bytes part is copied as it is, unchecked (the caller
   * knows it to be valid UTF-8).
   */
  pushParts(parts: readonly (string | Uint8Array)[]): void {
    let n = 0;
    for (const s of parts) n += s.length;
    if (this.count + 2 > this.offsets.length) this.growOffsets(this.count + 2);
    let pos = this.end;
    if (pos + 3 * n > this.data.length) {
      const next = allocData(capacity(this.data.length, pos + 3 * n));
      this.data.copy(next, 0, 0, pos);
      this.data = next;
    }
    for (const s of parts)
      if (typeof s === 'string') pos += this.data.utf8Write(s, pos);
      else {
        this.data.set(s, pos);
        pos += s.length;
      }
    this.end = pos;
    this.offsets[++this.count] = pos;
  }

  /** Drops the values from index `count` on. */
  truncate(count: number): void {
    this.count = count;
    this.end = this.offsets[count]!;
  }

  /** How many values the column holds. */
  get length(): number {
    return this.count;
  }

  /** Appends copies of values [from, to) already in the column: one native copy of their bytes. */
  repeat(from: number, to: number): void {
    const n = to - from;
    if (this.count + n + 1 > this.offsets.length) this.growOffsets(this.count + n + 1);
    const offsets = this.offsets;
    const start = offsets[from]!;
    const bytes = offsets[to]! - start;
    const end = this.end;
    if (end + bytes > this.data.length) {
      const next = allocData(capacity(this.data.length, end + bytes));
      this.data.copy(next, 0, 0, end);
      this.data = next;
    }
    this.data.copyWithin(end, start, start + bytes);
    const shift = end - start;
    for (let i = 1; i <= n; i++) offsets[this.count + i] = offsets[from + i]! + shift;
    this.count += n;
    this.end = end + bytes;
  }

  emit(parts: BatchParts): void {
    parts.node(this.count, 0);
    parts.noValidity();
    parts.buffer(this.offsetBytes, 4 * (this.count + 1));
    parts.buffer(this.data, this.end);
  }

  /** Drops buffers a huge batch grew, so one 5 MB value does not pin memory. */
  trim(maxBytes: number): void {
    if (this.data.length > maxBytes) this.data = allocData(1 << 16);
  }
}

/** The int32 offsets of a List or Map column (its child is emitted by the caller). */
export class OffsetsColumn {
  private offsets = new Int32Array(1024);
  private offsetBytes = bytesOf(this.offsets);
  private count = 0;

  reset(): void {
    this.count = 0;
  }
  /** Closes the current row at `childEnd`, the child's length so far. */
  push(childEnd: number): void {
    if (this.count + 2 > this.offsets.length) {
      const next = new Int32Array(capacity(this.offsets.length, this.count + 2));
      next.set(this.offsets.subarray(0, this.count + 1));
      this.offsets = next;
      this.offsetBytes = bytesOf(next);
    }
    this.offsets[++this.count] = childEnd;
  }
  emit(parts: BatchParts): void {
    parts.node(this.count, 0);
    parts.noValidity();
    parts.buffer(this.offsetBytes, 4 * (this.count + 1));
  }
}

/** A struct with no nulls: only its node and an empty validity buffer. */
export function emitStruct(parts: BatchParts, length: number): void {
  parts.node(length, 0);
  parts.noValidity();
}

abstract class FixedColumn<A extends Uint8Array | Uint16Array | Uint32Array | Float64Array | BigInt64Array> {
  protected values: A;
  private valueBytes: Uint8Array;
  protected count = 0;
  constructor(
    private readonly make: (n: number) => A,
    private readonly perRow: number,
  ) {
    this.values = make(1024 * perRow);
    this.valueBytes = new Uint8Array(this.values.buffer);
  }
  reset(): void {
    this.count = 0;
  }
  protected room(): void {
    if ((this.count + 1) * this.perRow > this.values.length) {
      const next = this.make(capacity(this.values.length, (this.count + 1) * this.perRow));
      (next as Uint8Array).set(this.values as Uint8Array);
      this.values = next;
      this.valueBytes = new Uint8Array(next.buffer);
    }
  }
  protected emitValues(parts: BatchParts): void {
    parts.buffer(this.valueBytes, this.count * this.perRow * this.values.BYTES_PER_ELEMENT);
  }
  emit(parts: BatchParts): void {
    parts.node(this.count, 0);
    parts.noValidity();
    this.emitValues(parts);
  }
}

export class Uint8Column extends FixedColumn<Uint8Array> {
  constructor() {
    super((n) => new Uint8Array(n), 1);
  }
  push(v: number): void {
    this.room();
    this.values[this.count++] = v;
  }
}

export class Uint16Column extends FixedColumn<Uint16Array> {
  constructor() {
    super((n) => new Uint16Array(n), 1);
  }
  push(v: number): void {
    this.room();
    this.values[this.count++] = v;
  }
}

export class Uint32Column extends FixedColumn<Uint32Array> {
  constructor() {
    super((n) => new Uint32Array(n), 1);
  }
  push(v: number): void {
    this.room();
    this.values[this.count++] = v;
  }
}

const TWO_32 = 4294967296;

/** UInt64 from a JS number (a non-negative integer; others are truncated, negatives and NaN become 0). */
export class Uint64Column extends FixedColumn<Uint32Array> {
  constructor() {
    super((n) => new Uint32Array(n), 2);
  }
  push(v: number): void {
    this.room();
    const n = v > 0 ? Math.floor(v) : 0;
    const i = this.count++ * 2;
    this.values[i] = n % TWO_32;
    this.values[i + 1] = Math.floor(n / TWO_32);
  }
}

/** Timestamps (and any int64) from a bigint, exactly. */
export class Int64Column extends FixedColumn<BigInt64Array> {
  constructor() {
    super((n) => new BigInt64Array(n), 1);
  }
  push(v: bigint): void {
    this.room();
    this.values[this.count++] = v;
  }
}

/** Bit-packed booleans. */
export class BoolColumn {
  private bits = new Uint8Array(1024);
  private count = 0;

  reset(): void {
    this.bits.fill(0, 0, (this.count + 7) >> 3);
    this.count = 0;
  }
  push(v: boolean): void {
    const byte = this.count >> 3;
    if (byte >= this.bits.length) {
      const next = new Uint8Array(capacity(this.bits.length, byte + 1));
      next.set(this.bits);
      this.bits = next;
    }
    if (v) this.bits[byte]! |= 1 << (this.count & 7);
    this.count++;
  }
  /** The bitmap as a buffer (data of a Bool column, or a validity bitmap). */
  emitBits(parts: BatchParts): void {
    parts.buffer(this.bits, (this.count + 7) >> 3);
  }
  emit(parts: BatchParts): void {
    parts.node(this.count, 0);
    parts.noValidity();
    this.emitBits(parts);
  }
}

/** Float64 with a validity bitmap (sent only when there are nulls). */
export class NullableFloat64Column extends FixedColumn<Float64Array> {
  private validity = new BoolColumn();
  private nulls = 0;

  constructor() {
    super((n) => new Float64Array(n), 1);
  }
  override reset(): void {
    super.reset();
    this.validity.reset();
    this.nulls = 0;
  }
  push(v: number | null): void {
    this.room();
    if (v === null) {
      this.nulls++;
      this.values[this.count++] = 0;
      this.validity.push(false);
    } else {
      this.values[this.count++] = v;
      this.validity.push(true);
    }
  }
  override emit(parts: BatchParts): void {
    parts.node(this.count, this.nulls);
    if (this.nulls === 0) parts.noValidity();
    else this.validity.emitBits(parts);
    this.emitValues(parts);
  }
}
