import { describe, expect, it } from 'vitest';
import { generateDataset } from './generateDataset.js';
import { shuffleForDelivery } from './shuffleForDelivery.js';
import { smallDataset } from './smallDataset.js';

const { spans } = generateDataset(smallDataset({ runs: 400, endNs: 1_800_000_000_000_000_000n }));

describe('shuffleForDelivery', () => {
  const batches = shuffleForDelivery(spans, 9);
  const flat = batches.flat();
  const position = new Map(flat.map((s, i) => [s.spanId, i]));
  const batchOf = new Map(batches.flatMap((b, i) => b.map((s) => [s.spanId, i] as const)));

  it('delivers every span exactly once, deterministically, in batches of the given sizes', () => {
    expect(flat).toHaveLength(spans.length);
    expect(new Set(flat)).toEqual(new Set(spans));
    expect(shuffleForDelivery(spans, 9)).toEqual(batches);
    expect(shuffleForDelivery(spans, 10).flat()).not.toEqual(flat);
    expect(batches.slice(0, -1).every((b) => b.length >= 50 && b.length <= 500)).toBe(true);
    expect(
      shuffleForDelivery(spans, 9, { batchSize: [10, 10] })
        .slice(0, -1)
        .every((b) => b.length === 10),
    ).toBe(true);
  });

  it('scrambles: children before parents, runs interleaved, some roots several batches late', () => {
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    let childFirst = 0;
    let pairs = 0;
    for (const s of spans) {
      if (!byId.has(s.parentSpanId)) continue;
      pairs++;
      if (position.get(s.spanId)! < position.get(s.parentSpanId)!) childFirst++;
    }
    expect(childFirst / pairs).toBeGreaterThan(0.8);
    const firstTen = new Set(flat.slice(0, 10).map((s) => s.runId));
    expect(firstTen.size).toBeGreaterThan(3);
    let lateRoots = 0;
    for (const s of spans) {
      if (!s.isRunRoot) continue;
      const others = spans.filter((x) => x.runId === s.runId && x !== s).map((x) => batchOf.get(x.spanId)!);
      if (batchOf.get(s.spanId)! > Math.max(...others)) lateRoots++;
    }
    expect(lateRoots).toBeGreaterThan(30);
  });
});
