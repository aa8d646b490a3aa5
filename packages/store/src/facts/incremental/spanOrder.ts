import type { FactSpan } from './FactSpan.js';

/**
 * Orders and keys the incremental finaliser shares with the SQL it mirrors.
 */

const keyBytes = new DataView(new ArrayBuffer(8));

/** `reinterpretAsUInt64(reverse(unhex(span_id)))`: the id's last 16 hex digits as a number (they order like the text). */
export function spanKeyOf(spanId: string): bigint {
  let hi = 0;
  let lo = 0;
  for (let i = Math.max(0, spanId.length - 16); i < spanId.length; i++) {
    const c = spanId.charCodeAt(i);
    const digit = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1;
    if (digit < 0) return 0n; // not hex: the ids this build stores always are
    hi = ((hi << 4) | (lo >>> 28)) >>> 0;
    lo = ((lo << 4) | digit) >>> 0;
  }
  keyBytes.setUint32(0, hi);
  keyBytes.setUint32(4, lo);
  return keyBytes.getBigUint64(0);
}

/** A kept span's key, parsed once (refinalisations reuse it). */
export function keyOfSpan(s: FactSpan): bigint {
  return (s.spanKey ??= spanKeyOf(s.spanId));
}

/** ClickHouse compares strings by their UTF-8 bytes: UTF-16 order but where a surrogate meets a code unit above U+DFFF. */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) return Buffer.compare(Buffer.from(a.slice(i)), Buffer.from(b.slice(i)));
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

export function compareBigints(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Sums per key in key order, as ClickHouse's sumMap returns them (keys of all-zero sums dropped). */
export class SumMap {
  private readonly sums = new Map<string, number[]>();
  /** `width`: how many sums per key, 1 to 4. */
  constructor(private readonly width: number) {}

  /** Adds up to four values to `key`'s sums (those past the width are ignored). */
  add(key: string, a: number, b = 0, c = 0, d = 0): void {
    let s = this.sums.get(key);
    if (s === undefined) this.sums.set(key, (s = new Array<number>(this.width).fill(0)));
    const width = this.width;
    s[0]! += a;
    if (width > 1) s[1]! += b;
    if (width > 2) s[2]! += c;
    if (width > 3) s[3]! += d;
  }

  /** [keys, column 0, column 1, …]. */
  columns(): [string[], ...number[][]] {
    const keys = [...this.sums.keys()].filter((k) => this.sums.get(k)?.some((v) => v !== 0)).sort(compareStrings);
    const cols: number[][] = [];
    for (let i = 0; i < this.width; i++) cols.push(keys.map((k) => this.sums.get(k)?.[i] ?? 0));
    return [keys, ...cols];
  }
}
