import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '@telltale/store';
import { StoreInspector, type QuantilesFunction } from '@telltale/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prng } from './Prng.js';
import { exactPercentile, exactPercentiles } from './exactPercentile.js';
import { generateDataset } from './generateDataset.js';
import { smallDataset } from './smallDataset.js';

const LEVELS = [0, 0.001, 0.01, 0.1, 0.25, 0.29, 0.5, 0.57, 0.9, 0.95, 0.99, 0.999, 1];

describe('exactPercentile', () => {
  it('takes the value at nearest rank ⌈q·n⌉ of the sorted values', () => {
    const ten = [9, 3, 0, 1, 8, 2, 7, 4, 6, 5];
    expect(exactPercentile(ten, 0.5)).toBe(4); // rank 5: at least half the values are ≤ 4
    expect(exactPercentile(ten, 0.25)).toBe(2); // rank ⌈2.5⌉ = 3
    expect(exactPercentile(ten, 0.9)).toBe(8);
    expect(exactPercentile(ten, 0.99)).toBe(9);
    expect(exactPercentile(ten, 0)).toBe(0);
    expect(exactPercentile(ten, 1)).toBe(9);
    expect(exactPercentile([7], 0.999)).toBe(7);
    expect(exactPercentile([], 0.5)).toBeNaN();
    const hundred = Array.from({ length: 100 }, (_, i) => i);
    // 0.07 · 100 = 7.000000000000001 and 0.29 · 100 = 28.999999999999996 in float64: ranks 7 and 29 all the same.
    expect(exactPercentile(hundred, 0.07)).toBe(6);
    expect(exactPercentile(hundred, 0.29)).toBe(28);
    expect(exactPercentiles([3, 1, 2], [0.5, 1])).toEqual([2, 3]);
    expect(() => exactPercentile([1], 1.5)).toThrow(RangeError);
  });
});

describe('exactPercentile equals ClickHouse quantileExact(q − 1e-12) (embedded chDB)', () => {
  let dir: string;
  let store: Store;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-datasets-pct-'));
    store = await Store.open({ kind: 'embedded', dataDir: dir });
  });

  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The levels as the SQL asks for them: q − 1e-12 (0 stays 0). */
  const shifted = (levels: readonly number[]): number[] =>
    levels.map((p) => (p === 0 ? 0 : Number((p - 1e-12).toFixed(12))));

  function chQuantiles(
    fn: QuantilesFunction,
    values: readonly number[],
    levels: readonly number[] = LEVELS,
  ): Promise<number[]> {
    return new StoreInspector(store).quantilesOf(fn, levels, values);
  }

  it('on arrays of many sizes, with ties, at every level including 0.999', async () => {
    const rng = new Prng(42);
    for (const n of [1, 2, 3, 4, 5, 7, 10, 11, 100, 999, 1000, 1001, 4321]) {
      const values = Array.from({ length: n }, () => rng.int(0, Math.max(3, Math.floor(n / 3))));
      expect(await chQuantiles('quantilesExact', values, shifted(LEVELS)), `n=${n}`).toEqual(
        exactPercentiles(values, LEVELS),
      );
    }
  });

  it('plain quantileExact(q) is one rank higher where q·n is whole; quantileExactLow agrees at 0.5 only', async () => {
    const values = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
    const ours = exactPercentiles(values, LEVELS);
    const plain = await chQuantiles('quantilesExact', values);
    const low = await chQuantiles('quantilesExactLow', values);
    LEVELS.forEach((q, i) => {
      const whole = Number.isInteger(Math.round(q * 10 * 1e6) / 1e6) && q > 0 && q < 1;
      expect(plain[i], `plain q=${q}`).toBe(whole ? ours[i]! + 1 : ours[i]);
      if (q === 0.5) expect(low[i]).toBe(ours[i]);
    });
    expect(low[LEVELS.indexOf(0.1)]).toBe(1); // Low is ⌊q·n⌋ elsewhere: rank 2, not rank 1
    expect(ours[LEVELS.indexOf(0.1)]).toBe(0);
  });

  it('on span durations stored through the Store, per step name', async () => {
    const { spans } = generateDataset(smallDataset({ runs: 600, endNs: BigInt(Date.now()) * 1_000_000n }));
    for (let i = 0; i < spans.length; i += 5_000) await store.insertSpans(spans.slice(i, i + 5_000));
    const levels = [0.5, 0.9, 0.95, 0.99, 0.999];
    const rows = await new StoreInspector(store).stepDurationQuantiles(shifted(levels));
    expect(rows.length).toBeGreaterThan(20);
    for (const row of rows) {
      const durations = spans
        .filter((s) => s.stepName === row.stepName)
        .map((s) => Number(s.endTimeUnixNano - s.startTimeUnixNano));
      expect(row.count).toBe(durations.length);
      expect(row.quantiles, row.stepName).toEqual(exactPercentiles(durations, levels));
    }
  });
});
