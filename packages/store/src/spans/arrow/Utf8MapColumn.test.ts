import { describe, expect, it } from 'vitest';
import { BatchParts } from './columns.js';
import { Utf8MapColumn } from './SpanColumns.js';

function bytesOf(map: Utf8MapColumn): Buffer[] {
  const parts = new BatchParts();
  map.emit(parts);
  return parts.sources.map((s, i) => Buffer.from(s.subarray(0, parts.lengths[i])));
}

describe('Utf8MapColumn', () => {
  it('writes rows repeated with repeatRow (counted, written later) as the same entries written again', () => {
    let seed = 3;
    const rand = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    for (let round = 0; round < 20; round++) {
      const got = new Utf8MapColumn();
      const want = new Utf8MapColumn();
      let last: [string, string][] = [];
      let from = 0;
      for (let row = 0; row < 300; row++) {
        if (row > 0 && rand(3) !== 0) {
          // the previous row again, as SpanColumns does for a resource's attributes
          from = got.repeatRow(from);
          for (const [k, v] of last) want.entry(k, v);
          want.endRow();
        } else {
          last = Array.from({ length: rand(4) }, (_, i) => [`k${i}`, `v${rand(1000)}`]);
          from = got.entries;
          for (const [k, v] of last) got.entry(k, v);
          got.endRow();
          for (const [k, v] of last) want.entry(k, v);
          want.endRow();
        }
        expect(got.entries).toBe(want.entries);
      }
      expect(bytesOf(got)).toEqual(bytesOf(want));
    }
  });
});
