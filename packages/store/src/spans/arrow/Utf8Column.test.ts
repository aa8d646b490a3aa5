import { describe, expect, it } from 'vitest';
import { BatchParts, Utf8Column } from './columns.js';

/** The column's offsets and data as emitted. */
function bytesOf(col: Utf8Column): Buffer[] {
  const parts = new BatchParts();
  col.emit(parts);
  return parts.sources.map((s, i) => Buffer.from(s.subarray(0, parts.lengths[i])));
}

describe('Utf8Column', () => {
  it('writes pushSame, pushAscii, pushInt, pushHex and pushWords values as push writes their text', () => {
    let seed = 7;
    const rand = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    const values = ['', 'bench', 'bench-agent-0', 'é€😀', 'x'.repeat(40), '@telltale/sdk'];
    for (let round = 0; round < 20; round++) {
      const got = new Utf8Column();
      const want = new Utf8Column();
      for (let step = 0; step < 400; step++) {
        const op = rand(8);
        if (op < 4) {
          // runs of the same value, broken by other values and other calls
          const v = values[rand(values.length)]!;
          const times = 1 + rand(5);
          for (let k = 0; k < times; k++) {
            got.pushSame(v);
            want.push(v);
          }
        } else if (op === 4) {
          const n = rand(2_000_000) - 1_000_000;
          got.pushInt(n);
          want.push(String(n));
        } else if (op === 5) {
          const src = Uint8Array.of(0x00, 0xab, 0xff, 0x10, 0x7f, 0x80, 0x01, 0xfe);
          got.pushHex(src, 0, 8);
          want.push(Buffer.from(src).toString('hex'));
        } else if (op === 6) {
          const text = values[rand(values.length)]!;
          const src = Buffer.from(`--${text}--`);
          if (!got.pushAscii(src, new DataView(src.buffer, src.byteOffset, src.length), 2, src.length - 2))
            got.push(text);
          want.push(text);
        } else {
          const bytes = new Uint8Array(Buffer.from(values[rand(values.length)]!));
          got.pushWords(bytes, new Uint32Array(bytes.buffer, 0, bytes.length >> 2));
          want.push(Buffer.from(bytes).toString());
        }
        if (rand(50) === 0) expect(got.length).toBe(want.length);
      }
      expect(got.length).toBe(want.length);
      expect(bytesOf(got)).toEqual(bytesOf(want));
    }
  });
});
