const TWO_32 = 4294967296;

interface NodeBuffer extends Buffer {
  /** Node's native UTF-8 writer behind Buffer#write, without its argument juggling: the bytes written. */
  utf8Write(s: string, offset: number): number;
}

const alloc = (bytes: number): NodeBuffer => Buffer.allocUnsafe(bytes) as NodeBuffer;

/**
 * Rows in ClickHouse's RowBinary format, written into one growing buffer:
 * every value as the engine reads it (little-endian numbers, a string as
 * its LEB128 byte length then its UTF-8 bytes, an array as its LEB128
 * length then its elements, a tuple as its fields in order; a
 * LowCardinality column as its inner type, a DateTime64 as its Int64
 * ticks). `row()` marks where each row starts.
 */
export class RowBinaryWriter {
  private buf: NodeBuffer;
  private view: DataView;
  private at = 0;
  private readonly starts: number[] = [];
  /** The last string written and where its bytes are (a length of -1: none): names and models recur row after row. */
  private lastString = '';
  private lastBytesAt = 0;
  private lastBytes = -1;

  constructor(initialBytes = 64 * 1024) {
    this.buf = alloc(initialBytes);
    this.view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
  }

  /** Bytes written. */
  get length(): number {
    return this.at;
  }

  /** Rows begun. */
  get rows(): number {
    return this.starts.length;
  }

  /** Begins a row. */
  row(): void {
    this.starts.push(this.at);
  }

  /** Forgets everything written, keeping the buffer for the next rows. */
  reset(): void {
    this.at = 0;
    this.starts.length = 0;
    this.lastBytes = -1;
  }

  /** Copies the bytes written into `to` (exactly `length` bytes); returns where each row starts there, and the end. */
  copyTo(to: Uint8Array): Uint32Array {
    to.set(this.buf.subarray(0, this.at));
    const starts = new Uint32Array(this.starts.length + 1);
    starts.set(this.starts);
    starts[this.starts.length] = this.at;
    return starts;
  }

  u8(x: number): void {
    this.room(1);
    this.buf[this.at++] = x;
  }

  u32(x: number): void {
    this.room(4);
    this.view.setUint32(this.at, x, true);
    this.at += 4;
  }

  /** A UInt64 from a number (exact up to 2^53). */
  u64(x: number): void {
    this.room(8);
    this.view.setUint32(this.at, x % TWO_32, true);
    this.view.setUint32(this.at + 4, Math.floor(x / TWO_32), true);
    this.at += 8;
  }

  /** A UInt64 from a bigint. */
  u64n(x: bigint): void {
    this.room(8);
    this.view.setBigUint64(this.at, x, true);
    this.at += 8;
  }

  /** An Int64 (or DateTime64's ticks) from a bigint. */
  i64n(x: bigint): void {
    this.room(8);
    this.view.setBigInt64(this.at, x, true);
    this.at += 8;
  }

  f64(x: number): void {
    this.room(8);
    this.view.setFloat64(this.at, x, true);
    this.at += 8;
  }

  str(s: string): void {
    if (s.length === 0) {
      this.u8(0);
      return;
    }
    const last = this.lastBytes;
    if (last >= 0 && last < 0x80 && s === this.lastString) {
      // the string just written again: its bytes copied, not encoded
      this.room(1 + last);
      const buf = this.buf;
      let to = this.at;
      buf[to++] = last;
      for (let from = this.lastBytesAt, end = from + last; from < end;) buf[to++] = buf[from++]!;
      this.at = to;
      return;
    }
    // a UTF-8 byte per UTF-16 unit at most 3, and a length prefix of at most 5 bytes
    this.room(5 + 3 * s.length);
    const start = this.at;
    // most strings are under 128 bytes: write after a one-byte length, and move them when it is longer
    const n = this.buf.utf8Write(s, start + 1);
    if (n < 0x80) {
      this.buf[start] = n;
      this.at = start + 1 + n;
      this.lastString = s;
      this.lastBytesAt = start + 1;
      this.lastBytes = n;
      return;
    }
    const prefix = leb128Length(n);
    this.buf.copyWithin(start + prefix, start + 1, start + 1 + n);
    this.writeLength(start, n);
    this.at = start + prefix + n;
  }

  /** An array's length, before its elements. */
  len(n: number): void {
    this.room(5);
    this.at = this.writeLength(this.at, n);
  }

  strs(xs: readonly string[]): void {
    this.len(xs.length);
    for (const x of xs) this.str(x);
  }

  u64s(xs: readonly number[]): void {
    this.len(xs.length);
    for (const x of xs) this.u64(x);
  }

  u64ns(xs: readonly bigint[]): void {
    this.len(xs.length);
    for (const x of xs) this.u64n(x);
  }

  i64ns(xs: readonly bigint[]): void {
    this.len(xs.length);
    for (const x of xs) this.i64n(x);
  }

  f64s(xs: readonly number[]): void {
    this.len(xs.length);
    for (const x of xs) this.f64(x);
  }

  /** Writes `n` as LEB128 at `at`; returns where it ends. */
  private writeLength(at: number, n: number): number {
    while (n >= 0x80) {
      this.buf[at++] = (n & 0x7f) | 0x80;
      n = Math.floor(n / 0x80);
    }
    this.buf[at++] = n;
    return at;
  }

  private room(bytes: number): void {
    if (this.at + bytes <= this.buf.length) return;
    const next = alloc(Math.max(this.buf.length * 2, this.at + bytes));
    this.buf.copy(next, 0, 0, this.at);
    this.buf = next;
    this.view = new DataView(next.buffer, next.byteOffset, next.byteLength);
  }
}

function leb128Length(n: number): number {
  let bytes = 1;
  while (n >= 0x80) {
    n = Math.floor(n / 0x80);
    bytes++;
  }
  return bytes;
}
