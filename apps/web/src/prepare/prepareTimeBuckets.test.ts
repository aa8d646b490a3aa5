import { describe, expect, it } from 'vitest';
import { prepareTimeBuckets, timeLabel } from './prepareTimeBuckets';

const MIN = 60_000;

describe('prepareTimeBuckets', () => {
  it('tiles the window with the finest aligned width giving at most maxBuckets', () => {
    const window = { fromMs: 10 * MIN, toMs: 70 * MIN };
    const buckets = prepareTimeBuckets(window, 12);
    expect(buckets).toHaveLength(12);
    expect(buckets[0]).toEqual({ fromMs: 10 * MIN, toMs: 15 * MIN });
    expect(buckets[11]).toEqual({ fromMs: 65 * MIN, toMs: 70 * MIN });
  });

  it('clips unaligned ends so the buckets cover exactly the window', () => {
    const window = { fromMs: 7 * MIN, toMs: 52 * MIN };
    const buckets = prepareTimeBuckets(window, 4);
    expect(buckets.map((b) => [b.fromMs / MIN, b.toMs / MIN])).toEqual([
      [7, 15],
      [15, 30],
      [30, 45],
      [45, 52],
    ]);
    for (let i = 1; i < buckets.length; i++) expect(buckets[i]?.fromMs).toBe(buckets[i - 1]?.toMs);
  });

  it('is empty for an empty window', () => {
    expect(prepareTimeBuckets({ fromMs: 5, toMs: 5 }, 12)).toEqual([]);
  });
});

describe('timeLabel', () => {
  it('shows the time of day for short windows and the date for long ones', () => {
    const at = Date.parse('2026-11-25T09:45:00Z');
    expect(timeLabel(at, 3_600_000, 'UTC')).toBe('09:45');
    expect(timeLabel(at, 7 * 86_400_000, 'UTC')).toBe('25 Nov, 09');
  });
});
