import type { ProtoReader } from '../otlp/protoReader.js';
import { AV_BOOL, AV_DOUBLE, AV_INT, AV_STRING, KV_KEY, KV_VALUE } from '../otlp/otlpFields.js';
import type { SpanScratch } from './SpanScratch.js';
import { ValueKind } from './valueKind.js';

let view: DataView<ArrayBufferLike> = new DataView(new ArrayBuffer(8));
let viewBuf: Uint8Array | undefined;

/** A DataView over `buf` (the last one made, while `buf` is the same). */
export function viewOf(buf: Uint8Array): DataView<ArrayBufferLike> {
  if (viewBuf !== buf) {
    viewBuf = buf;
    view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }
  return view;
}

/** Lets go of the last body read. */
export function releaseView(): void {
  viewBuf = undefined;
  view = new DataView(new ArrayBuffer(8));
}

/**
 * The common shape of a KeyValue in one look: one-byte lengths, the key
 * then the value, the value a string, bool, small int or double. Anything
 * else (or anything malformed) returns false with `r.pos` untouched, for
 * SpanScratch's general reader, which decides the same way for these bytes.
 */
export function readKeyValueFast(r: ProtoReader, s: SpanScratch, i: number): boolean {
  const buf = r.buf;
  const p = r.pos;
  if (p >= r.limit) return false;
  const kvLen = buf[p]!;
  const kvEnd = p + 1 + kvLen;
  if (kvLen >= 0x80 || kvEnd > r.limit || kvLen < 4 || buf[p + 1] !== KV_KEY) return false;
  const keyLen = buf[p + 2]!;
  const keyAt = p + 3;
  const q = keyAt + keyLen;
  if (keyLen >= 0x80 || q + 2 > kvEnd || buf[q] !== KV_VALUE) return false;
  const avLen = buf[q + 1]!;
  const av = q + 2;
  if (av + avLen !== kvEnd || avLen === 0) return false;
  const tag = buf[av]!;
  if (tag === AV_STRING) {
    const len = buf[av + 1]!;
    if (avLen < 2 || len >= 0x80 || av + 2 + len !== kvEnd) return false;
    s.starts[i] = av + 2;
    s.lens[i] = len;
    s.kinds[i] = ValueKind.string;
  } else if (tag === AV_BOOL || tag === AV_INT) {
    // a varint of at most 4 bytes (< 2^28) ending the value
    if (avLen < 2 || avLen > 5 || buf[kvEnd - 1]! >= 0x80) return false;
    let v = 0;
    for (let k = av + 1, shift = 0; k < kvEnd; k++, shift += 7) {
      const b = buf[k]!;
      if (k < kvEnd - 1 && b < 0x80) return false;
      v |= (b & 0x7f) << shift;
    }
    s.nums[i] = tag === AV_BOOL ? (v !== 0 ? 1 : 0) : v;
    s.kinds[i] = tag === AV_BOOL ? ValueKind.bool : ValueKind.int;
  } else if (tag === AV_DOUBLE) {
    if (avLen !== 9) return false;
    s.nums[i] = viewOf(r.buf).getFloat64(av + 1, true);
    s.kinds[i] = ValueKind.double;
  } else return false;
  s.objs[i] = undefined;
  s.keyStarts[i] = keyAt;
  s.keyLens[i] = keyLen;
  s.infos[i] = s.keyInfo(r, keyAt, keyLen, i);
  s.attributes = i + 1;
  r.pos = kvEnd;
  return true;
}
