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

function viewOf(data: Uint8Array): DataView {
  return new DataView(data.buffer, data.byteOffset, data.byteLength);
}

/** Strings shorter than this are copied by a JS loop while ASCII; a native call costs more than it saves. */
const NATIVE_FROM = 32;

function capacity(current: number, need: number): number {
  let size = current * 2;
  while (size < need) size *= 2;
  return size;
}

/** Lowercase hex of each byte value as two digit bytes, read as one little-endian uint16. */
const HEX_PAIRS = new Uint16Array(256);
for (let i = 0; i < 256; i++)
  HEX_PAIRS[i] = '0123456789abcdef'.charCodeAt(i >> 4) | ('0123456789abcdef'.charCodeAt(i & 15) << 8);

/** Masks the high bit of each byte of a 32-bit word (as an int32). */
const HIGH_BITS = 0x80808080 | 0;

/** Variable-length UTF-8 strings: int32 offsets and one data buffer. */
export class Utf8Column {
  private offsets = new Int32Array(1024);
  private offsetBytes = bytesOf(this.offsets);
  private data = allocData(1 << 16);
  private view = viewOf(this.data);
  private count = 0;
  private end = 0;
  /** The string `pushSame` wrote last, and the count after it (with `pending` more copies of it not written yet). */
  private last = '';
  private lastCount = -1;
  private pending = 0;

  reset(): void {
    this.count = 0;
    this.end = 0;
    this.last = '';
    this.lastCount = -1;
    this.pending = 0;
  }

  /** Writes the copies of the last value that `pushSame` only counted (every other method first does). */
  private flush(): void {
    const k = this.pending;
    this.pending = 0;
    if (this.count + k + 1 > this.offsets.length) this.growOffsets(this.count + k + 1);
    const offsets = this.offsets;
    const from = offsets[this.count - 1]!;
    const n = this.end - from;
    if (this.end + k * n > this.data.length) this.growData(this.end + k * n);
    // doubling copies: one native copy per power of two
    const stop = this.end + k * n;
    let end = this.end;
    while (end < stop) {
      const len = Math.min(end - from, stop - end);
      this.data.copyWithin(end, from, from + len);
      end += len;
    }
    for (let i = 1; i <= k; i++) offsets[this.count + i] = this.end + i * n;
    this.count += k;
    this.end = stop;
    this.lastCount = this.count;
  }

  private growData(need: number): void {
    const next = allocData(capacity(this.data.length, need));
    this.data.copy(next, 0, 0, this.end);
    this.data = next;
    this.view = viewOf(next);
  }

  private growOffsets(need: number): void {
    const next = new Int32Array(capacity(this.offsets.length, need));
    next.set(this.offsets.subarray(0, this.count + 1));
    this.offsets = next;
    this.offsetBytes = bytesOf(next);
  }

  push(s: string): void {
    if (this.pending !== 0) this.flush();
    const n = s.length;
    if (this.count + 2 > this.offsets.length) this.growOffsets(this.count + 2);
    let pos = this.end;
    if (pos + 3 * n > this.data.length) this.growData(pos + 3 * n);
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
   * `push`, for a value that is often the same string as the row before's (a
   * request's project, service, scope): then it is only counted, and its
   * copies are written together by the next other call.
   */
  pushSame(s: string): void {
    if (s === this.last && this.lastCount === this.count && this.count > 0) {
      this.pending++;
      return;
    }
    if (this.pending !== 0) this.flush();
    this.push(s);
    this.last = s;
    this.lastCount = this.count;
  }

  /**
   * Appends bytes [start, end) of `src` (`srcView` a DataView over it) as one
   * value if they are all ASCII (and so valid UTF-8); otherwise appends
   * nothing and returns false.
   */
  pushAscii(src: Uint8Array, srcView: DataView, start: number, end: number): boolean {
    if (this.pending !== 0) this.flush();
    const n = end - start;
    if (this.count + 2 > this.offsets.length) this.growOffsets(this.count + 2);
    const pos = this.end;
    if (pos + n > this.data.length) this.growData(pos + n);
    const data = this.data;
    const view = this.view;
    let high = 0;
    let i = 0;
    for (; i + 4 <= n; i += 4) {
      const w = srcView.getInt32(start + i, true);
      high |= w;
      view.setInt32(pos + i, w, true);
    }
    for (; i < n; i++) {
      const b = src[start + i]!;
      high |= b;
      data[pos + i] = b;
    }
    if ((high & HIGH_BITS) !== 0) return false;
    this.end = pos + n;
    this.offsets[++this.count] = pos + n;
    return true;
  }

  /**
   * Appends `bytes` as one value, unchecked: the caller knows them to be
   * valid UTF-8. `words` are its first bytes as little-endian 32-bit words
   * (a view of the same memory), copied four bytes at a time.
   */
  pushWords(bytes: Uint8Array, words: Uint32Array): void {
    if (this.pending !== 0) this.flush();
    const n = bytes.length;
    if (this.count + 2 > this.offsets.length) this.growOffsets(this.count + 2);
    const pos = this.end;
    if (pos + n > this.data.length) this.growData(pos + n);
    const view = this.view;
    const w = words.length;
    for (let k = 0; k < w; k++) view.setUint32(pos + 4 * k, words[k]!, true);
    const data = this.data;
    for (let k = 4 * w; k < n; k++) data[pos + k] = bytes[k]!;
    this.end = pos + n;
    this.offsets[++this.count] = pos + n;
  }

  /** Appends a safe integer's decimal text (String(n)), without making the string when it fits in an int32. */
  pushInt(n: number): void {
    if (this.pending !== 0) this.flush();
    if (n !== (n | 0)) {
      this.push(String(n));
      return;
    }
    if (this.count + 2 > this.offsets.length) this.growOffsets(this.count + 2);
    let pos = this.end;
    if (pos + 11 > this.data.length) this.growData(pos + 11);
    const data = this.data;
    let v = n;
    if (v < 0) {
      data[pos++] = 45; // '-'
      v = -v;
    }
    let digits = 1;
    for (let t = v; t >= 10; t = Math.floor(t / 10)) digits++;
    for (let k = digits - 1; k >= 0; k--) {
      data[pos + k] = 48 + (v % 10);
      v = Math.floor(v / 10);
    }
    pos += digits;
    this.end = pos;
    this.offsets[++this.count] = pos;
  }

  /** Appends the lowercase hex of `size` bytes of `src` at `at` (trace and span ids). */
  pushHex(src: Uint8Array, at: number, size: number): void {
    if (this.pending !== 0) this.flush();
    if (this.count + 2 > this.offsets.length) this.growOffsets(this.count + 2);
    const pos = this.end;
    if (pos + 2 * size > this.data.length) this.growData(pos + 2 * size);
    const view = this.view;
    for (let i = 0; i < size; i++) view.setUint16(pos + 2 * i, HEX_PAIRS[src[at + i]!]!, true);
    this.end = pos + 2 * size;
    this.offsets[++this.count] = pos + 2 * size;
  }

  /**
   * Appends bytes [start, end) of `src` as one value, unchecked: the caller
   * knows them to be valid UTF-8 (the fused OTLP decoder copies strings of
   * the request body this way, without decoding them).
   */
  pushBytes(src: Uint8Array, start: number, end: number): void {
    if (this.pending !== 0) this.flush();
    const n = end - start;
    if (this.count + 2 > this.offsets.length) this.growOffsets(this.count + 2);
    const pos = this.end;
    if (pos + n > this.data.length) this.growData(pos + n);
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
    if (this.pending !== 0) this.flush();
    let n = 0;
    for (const s of parts) n += s.length;
    if (this.count + 2 > this.offsets.length) this.growOffsets(this.count + 2);
    let pos = this.end;
    if (pos + 3 * n > this.data.length) this.growData(pos + 3 * n);
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
    if (this.pending !== 0) this.flush();
    this.count = count;
    this.end = this.offsets[count]!;
    this.lastCount = -1;
  }

  /** How many values the column holds. */
  get length(): number {
    if (this.pending !== 0) this.flush();
    return this.count;
  }

  /** Appends copies of values [from, to) already in the column: one native copy of their bytes. */
  repeat(from: number, to: number): void {
    if (this.pending !== 0) this.flush();
    const n = to - from;
    if (this.count + n + 1 > this.offsets.length) this.growOffsets(this.count + n + 1);
    const offsets = this.offsets;
    const start = offsets[from]!;
    const bytes = offsets[to]! - start;
    const end = this.end;
    if (end + bytes > this.data.length) this.growData(end + bytes);
    this.data.copyWithin(end, start, start + bytes);
    const shift = end - start;
    for (let i = 1; i <= n; i++) offsets[this.count + i] = offsets[from + i]! + shift;
    this.count += n;
    this.end = end + bytes;
  }

  emit(parts: BatchParts): void {
    if (this.pending !== 0) this.flush();
    parts.node(this.count, 0);
    parts.noValidity();
    parts.buffer(this.offsetBytes, 4 * (this.count + 1));
    parts.buffer(this.data, this.end);
  }

  /** Drops buffers a huge batch grew, so one 5 MB value does not pin memory. */
  trim(maxBytes: number): void {
    if (this.pending !== 0) this.flush();
    if (this.data.length > maxBytes) {
      this.data = allocData(1 << 16);
      this.view = viewOf(this.data);
    }
    this.lastCount = -1;
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
  /** Makes room for one more row (each subclass's push checks first: a check here would see every subclass). */
  protected grow(): void {
    const next = this.make(capacity(this.values.length, (this.count + 1) * this.perRow));
    (next as Uint8Array).set(this.values as Uint8Array);
    this.values = next;
    this.valueBytes = new Uint8Array(next.buffer);
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
    if (this.count >= this.values.length) this.grow();
    this.values[this.count++] = v;
  }
}

export class Uint16Column extends FixedColumn<Uint16Array> {
  constructor() {
    super((n) => new Uint16Array(n), 1);
  }
  push(v: number): void {
    if (this.count >= this.values.length) this.grow();
    this.values[this.count++] = v;
  }
}

export class Uint32Column extends FixedColumn<Uint32Array> {
  constructor() {
    super((n) => new Uint32Array(n), 1);
  }
  push(v: number): void {
    if (this.count >= this.values.length) this.grow();
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
    if (2 * this.count + 2 > this.values.length) this.grow();
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
  private halves = new Uint32Array(this.values.buffer);
  push(v: bigint): void {
    if (this.count >= this.values.length) this.grow();
    this.values[this.count++] = v;
  }
  /** An int64 given as its unsigned 32-bit halves (a fixed64 read from a protobuf body), without a bigint. */
  pushHalves(lo: number, hi: number): void {
    if (this.count >= this.values.length) this.grow();
    if (this.halves.buffer !== this.values.buffer) this.halves = new Uint32Array(this.values.buffer);
    const i = 2 * this.count++;
    this.halves[i] = lo;
    this.halves[i + 1] = hi;
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
    if (this.count >= this.values.length) this.grow();
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
