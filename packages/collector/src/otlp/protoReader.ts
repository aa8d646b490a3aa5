import { Buffer } from 'node:buffer';
import { OtlpDecodeError } from './OtlpDecodeError.js';
import { MAX_GROUP_DEPTH } from './limits.js';
import { HEX_CODES, WireType, int64FromHalves } from './protoWire.js';

/** Decodes UTF-8 from a range of the request body (non-fatal: bad bytes become U+FFFD). */
interface Utf8Slicer {
  utf8Slice(start: number, end: number): string;
}

/**
 * A Buffer view of `buf` (no copy). Buffer#utf8Slice is what
 * Buffer#toString('utf8', start, end) calls after checking its arguments;
 * calling it directly is ~10% faster on a whole request full of short
 * strings, and faster than TextDecoder. It is not in Node's typings, hence
 * the feature check and the documented fallback.
 */
function utf8Slicer(buf: Uint8Array): Utf8Slicer {
  const view = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  if (typeof (view as Partial<Utf8Slicer>).utf8Slice === 'function') return view as unknown as Utf8Slicer;
  return { utf8Slice: (start, end) => view.toString('utf8', start, end) };
}

const MAX_EXACT = 2n ** 53n;

/** Strings up to this many bytes go through the cache below. */
const CACHED_MAX_BYTES = 64;
const CACHE_SLOTS = 4096;

/**
 * The strings of OTLP export requests repeat: attribute keys, span and
 * scope names, models, step and tool names. A direct-mapped cache of short
 * strings by their UTF-8 bytes returns the string decoded before (no native
 * call, no allocation) when the bytes match exactly; a colliding or new
 * string is decoded and replaces the slot. One per thread (module state).
 */
class ShortStrings {
  private readonly bytes = new Uint8Array(CACHE_SLOTS * CACHED_MAX_BYTES);
  /** Byte length per slot; -1 when empty. */
  private readonly lengths = new Int32Array(CACHE_SLOTS).fill(-1);
  private readonly strings: string[] = new Array<string>(CACHE_SLOTS).fill('');

  private readonly words = new DataView(this.bytes.buffer);

  get(buf: Uint8Array, view: DataView, start: number, len: number, text: Utf8Slicer): string {
    // a hash of the length and at most the first and last 8 bytes: bounded work; the full compare below decides
    const end = start + len;
    let h = 0x811c9dc5 ^ len;
    if (len >= 8) {
      h = mix(h, view.getInt32(start, true));
      h = mix(h, view.getInt32(start + 4, true));
      h = mix(h, view.getInt32(end - 8, true));
      h = mix(h, view.getInt32(end - 4, true));
    } else {
      for (let i = start; i < end; i++) h = Math.imul(h ^ buf[i]!, 0x01000193);
    }
    const slot = (h ^ (h >>> 15)) & (CACHE_SLOTS - 1);
    const base = slot * CACHED_MAX_BYTES;
    if (this.lengths[slot] === len) {
      // compared four bytes at a time, then the rest
      const words = this.words;
      const n = len & ~3;
      let i = 0;
      while (i < n && words.getInt32(base + i, true) === view.getInt32(start + i, true)) i += 4;
      if (i === n) {
        const bytes = this.bytes;
        while (i < len && bytes[base + i] === buf[start + i]) i++;
        if (i === len) return this.strings[slot]!;
      }
    }
    const s = text.utf8Slice(start, end);
    // a loop, not set(subarray): no view object per new string
    const bytes = this.bytes;
    for (let i = 0; i < len; i++) bytes[base + i] = buf[start + i]!;
    this.lengths[slot] = len;
    this.strings[slot] = s;
    return s;
  }
}

/** One step of a multiplicative hash over 32-bit words. */
function mix(h: number, word: number): number {
  const m = Math.imul(h ^ word, 0x85ebca6b);
  return m ^ (m >>> 13);
}

const shortStrings = new ShortStrings();

/**
 * A cursor over one protobuf-encoded buffer. Every read is bounded by `limit`,
 * the end of the message being decoded: `enter()` narrows it to a nested
 * message and `leave()` restores it, so a field can never read past its
 * enclosing message and a length prefix can never point past it either.
 * Every read advances `pos` by at least one byte, so decoding cannot loop.
 * Nothing is allocated from a length prefix before it is checked against the
 * bytes actually present.
 */
export class ProtoReader {
  pos = 0;
  limit: number;
  /** Where the most recent tag started, for error messages. */
  tagPos = 0;
  /** The bytes being decoded. */
  readonly buf: Uint8Array;
  /** A DataView over `buf`. */
  readonly view: DataView;
  private readonly text: Utf8Slicer;
  /** Reused argument list for building 16- and 32-char hex ids. */
  private readonly hexScratch: number[][] = [new Array<number>(16).fill(0), new Array<number>(32).fill(0)];

  constructor(buf: Uint8Array) {
    this.buf = buf;
    this.limit = buf.length;
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    this.text = utf8Slicer(buf);
  }

  fail(message: string, offset: number = this.pos): never {
    throw new OtlpDecodeError({ message, offset });
  }

  private need(n: number, what: string): void {
    if (this.limit - this.pos < n) {
      this.fail(`truncated ${what}: need ${n} bytes, ${this.limit - this.pos} left in the enclosing message`);
    }
  }

  /** Reads a field tag. Field number 0 and tags beyond 32 bits are malformed. */
  readTag(): number {
    this.tagPos = this.pos;
    const tag = this.readVarintNumber();
    if (tag > 0xffffffff || tag < 8) this.fail(`invalid field tag ${tag}`, this.tagPos);
    return tag;
  }

  /**
   * Reads a varint as a double: exact below 2^53, which covers tags and lengths
   * (anything larger is rejected by the caller anyway). At most 10 bytes.
   */
  readVarintNumber(): number {
    const start = this.pos;
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.limit) this.fail('truncated varint', start);
      const b = this.buf[this.pos++]!;
      value += (b & 0x7f) * scale;
      if (b < 0x80) return value;
      scale *= 128;
    }
    return this.fail('varint longer than 10 bytes', start);
  }

  /**
   * Reads a varint and keeps its low 32 bits, as protobuf does for uint32 and
   * int32/enum fields (negative int32 values are sign-extended 10-byte varints;
   * callers wanting int32 apply `| 0`). Returns an unsigned 32-bit number.
   */
  readUint32(): number {
    const start = this.pos;
    let result = 0;
    // Bytes 1-5 carry bits 0-34; bits above 31 fall off the 32-bit `|`.
    for (let shift = 0; shift < 35; shift += 7) {
      if (this.pos >= this.limit) this.fail('truncated varint', start);
      const b = this.buf[this.pos++]!;
      result |= (b & 0x7f) << shift;
      if (b < 0x80) return result >>> 0;
    }
    // Bytes 6-10 carry only bits 35-63: consume them, keep nothing.
    for (let i = 5; i < 10; i++) {
      if (this.pos >= this.limit) this.fail('truncated varint', start);
      if (this.buf[this.pos++]! < 0x80) return result >>> 0;
    }
    return this.fail('varint longer than 10 bytes', start);
  }

  /**
   * Reads an int64 varint (two's complement; negatives take 10 bytes) as a
   * bigint, accumulating two 32-bit halves and converting to BigInt once.
   */
  readInt64(): bigint {
    const start = this.pos;
    let lo = 0;
    let hi = 0;
    let b = 0;
    // Bytes 1-4: bits 0-27.
    for (let shift = 0; shift < 28; shift += 7) {
      if (this.pos >= this.limit) this.fail('truncated varint', start);
      b = this.buf[this.pos++]!;
      lo |= (b & 0x7f) << shift;
      if (b < 0x80) return BigInt(lo);
    }
    // Byte 5 straddles the halves: 4 bits to lo (28-31), 3 bits to hi (0-2).
    if (this.pos >= this.limit) this.fail('truncated varint', start);
    b = this.buf[this.pos++]!;
    lo |= (b & 0x7f) << 28;
    hi = (b & 0x7f) >> 4;
    if (b >= 0x80) {
      // Bytes 6-10: hi bits 3-31; the 10th byte may only hold bit 63.
      for (let shift = 3; ; shift += 7) {
        if (this.pos >= this.limit) this.fail('truncated varint', start);
        b = this.buf[this.pos++]!;
        if (shift === 31) {
          if (b > 1) this.fail('varint overflows 64 bits', start);
          hi |= b << 31;
          break;
        }
        hi |= (b & 0x7f) << shift;
        if (b < 0x80) break;
      }
    }
    return int64FromHalves(lo >>> 0, hi >>> 0);
  }

  /**
   * Reads an int64 varint as readInt64 does, but as a number when it is
   * within ±2^53 (no BigInt made): the fused decoder's attribute values.
   */
  readInt64Value(): number | bigint {
    const start = this.pos;
    let lo = 0;
    let b = 0;
    for (let shift = 0; shift < 28; shift += 7) {
      if (this.pos >= this.limit) this.fail('truncated varint', start);
      b = this.buf[this.pos++]!;
      lo |= (b & 0x7f) << shift;
      if (b < 0x80) return lo;
    }
    this.pos = start;
    const v = this.readInt64();
    return v >= -MAX_EXACT && v <= MAX_EXACT ? Number(v) : v;
  }

  /** Reads a varint bool: any non-zero value is true. */
  readBool(): boolean {
    return this.readVarintNumber() !== 0;
  }

  readFixed32(): number {
    this.need(4, 'fixed32');
    const v = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }

  /** Reads an unsigned fixed64 (timestamps) as a bigint in one native step. */
  readFixed64(): bigint {
    this.need(8, 'fixed64');
    const v = this.view.getBigUint64(this.pos, true);
    this.pos += 8;
    return v;
  }

  /** Steps over a fixed64 (with readFixed64's check). */
  readFixed64Skip(): void {
    this.need(8, 'fixed64');
    this.pos += 8;
  }

  readDouble(): number {
    this.need(8, 'double');
    const v = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return v;
  }

  /** Reads a length prefix and checks it against the bytes left in the enclosing message. */
  readLength(): number {
    const start = this.pos;
    const len = this.readVarintNumber();
    if (len > this.limit - this.pos) {
      this.fail(`length ${len} exceeds the ${this.limit - this.pos} bytes left in the enclosing message`, start);
    }
    return len;
  }

  /**
   * Reads a string. Invalid UTF-8 is tolerated, not rejected: bad sequences
   * become U+FFFD (WHATWG decoding), so one mangled attribute cannot cost a
   * whole batch of spans. A leading U+FEFF is kept as a character.
   */
  readString(): string {
    const len = this.readLength();
    if (len === 0) return '';
    const start = this.pos;
    this.pos += len;
    if (len <= CACHED_MAX_BYTES) return shortStrings.get(this.buf, this.view, start, len, this.text);
    return this.text.utf8Slice(start, start + len);
  }

  /** The string of bytes [start, start + len), decoded as readString decodes. */
  stringAt(start: number, len: number): string {
    if (len === 0) return '';
    if (len <= CACHED_MAX_BYTES) return shortStrings.get(this.buf, this.view, start, len, this.text);
    return this.text.utf8Slice(start, start + len);
  }

  /** Reads a bytes field into a fresh copy (the value must not alias the request body). */
  readBytes(): Uint8Array {
    const len = this.readLength();
    const start = this.pos;
    this.pos += len;
    return this.buf.slice(start, start + len);
  }

  /**
   * Reads a trace/span id as lowercase hex. Empty means absent (''); any
   * other length than `size` bytes is malformed.
   */
  readId(size: 8 | 16, what: string): string {
    const start = this.pos;
    const len = this.readLength();
    if (len === 0) return '';
    if (len !== size) this.fail(`${what} must be ${size} bytes (or empty), got ${len}`, start);
    const codes = size === 8 ? this.hexScratch[0]! : this.hexScratch[1]!;
    const at = this.pos;
    for (let i = 0; i < size; i++) {
      const byte = this.buf[at + i]!;
      codes[2 * i] = HEX_CODES[2 * byte]!;
      codes[2 * i + 1] = HEX_CODES[2 * byte + 1]!;
    }
    this.pos += size;
    return String.fromCharCode.apply(null, codes);
  }

  /** Narrows `limit` to the length-delimited message starting here; returns the limit to restore. */
  enter(): number {
    const len = this.readLength();
    const parentLimit = this.limit;
    this.limit = this.pos + len;
    return parentLimit;
  }

  leave(parentLimit: number): void {
    if (this.pos !== this.limit) this.fail('message did not end at its length boundary');
    this.limit = parentLimit;
  }

  /**
   * Handles a tag the message decoder did not match: a known field number
   * (bit set in `known`) with the wrong wire type is malformed; anything else
   * is a field from a newer schema and is skipped.
   */
  skipUnknown(tag: number, known: number, message: string): void {
    const field = tag >>> 3;
    const wireType = tag & 7;
    if (field < 32 && (known >>> field) & 1) {
      this.fail(`wrong wire type ${wireType} for ${message} field ${field}`, this.tagPos);
    }
    this.skip(field, wireType, 0);
  }

  private skip(field: number, wireType: number, groupDepth: number): void {
    switch (wireType) {
      case WireType.VARINT:
        this.readVarintNumber();
        return;
      case WireType.I64:
        this.need(8, 'fixed64 field');
        this.pos += 8;
        return;
      case WireType.LEN: {
        const n = this.readLength(); // not `this.pos += this.readLength()`: that adds to the stale pos
        this.pos += n;
        return;
      }
      case WireType.I32:
        this.need(4, 'fixed32 field');
        this.pos += 4;
        return;
      case WireType.SGROUP:
        this.skipGroup(field, groupDepth + 1);
        return;
      case WireType.EGROUP:
        this.fail(`unexpected end-group for field ${field}`, this.tagPos);
        break;
      default:
        this.fail(`invalid wire type ${wireType} for field ${field}`, this.tagPos);
    }
  }

  /** Skips a deprecated group: fields up to the end-group tag with the same number. */
  private skipGroup(field: number, depth: number): void {
    if (depth > MAX_GROUP_DEPTH) this.fail(`groups nested deeper than ${MAX_GROUP_DEPTH}`);
    for (;;) {
      if (this.pos >= this.limit) this.fail(`truncated group for field ${field}`);
      const tag = this.readTag();
      const inner = tag >>> 3;
      if ((tag & 7) === WireType.EGROUP) {
        if (inner !== field) this.fail(`end-group for field ${inner} closes group ${field}`, this.tagPos);
        return;
      }
      this.skip(inner, tag & 7, depth);
    }
  }
}
