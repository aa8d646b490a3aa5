/**
 * Orders and keys the incremental finaliser shares with the SQL it mirrors.
 */

/** `reinterpretAsUInt64(reverse(unhex(span_id)))`: the id's last 16 hex digits as a number (they order like the text). */
export function spanKeyOf(spanId: string): bigint {
  if (spanId.length === 0) return 0n;
  const hex = spanId.length > 16 ? spanId.slice(-16) : spanId;
  return /^[0-9a-fA-F]+$/.test(hex) ? BigInt(`0x${hex}`) : 0n;
}

/** ClickHouse compares strings by their UTF-8 bytes. */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  // UTF-16 order equals byte order unless a surrogate pair meets a code unit above U+E000
  if (/[\uD800-\uFFFF]/.test(a) || /[\uD800-\uFFFF]/.test(b)) return Buffer.compare(Buffer.from(a), Buffer.from(b));
  return a < b ? -1 : 1;
}

export function compareBigints(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Sums per key in key order, as ClickHouse's sumMap returns them (keys of all-zero sums dropped). */
export class SumMap {
  private readonly sums = new Map<string, number[]>();
  constructor(private readonly width: number) {}

  add(key: string, values: readonly number[]): void {
    let s = this.sums.get(key);
    if (s === undefined) this.sums.set(key, (s = new Array<number>(this.width).fill(0)));
    for (let i = 0; i < this.width; i++) s[i] = (s[i] ?? 0) + (values[i] ?? 0);
  }

  /** [keys, column 0, column 1, …]. */
  columns(): [string[], ...number[][]] {
    const keys = [...this.sums.keys()].filter((k) => this.sums.get(k)?.some((v) => v !== 0)).sort(compareStrings);
    const cols: number[][] = [];
    for (let i = 0; i < this.width; i++) cols.push(keys.map((k) => this.sums.get(k)?.[i] ?? 0));
    return [keys, ...cols];
  }
}
