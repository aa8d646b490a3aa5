import { describe, expect, it } from 'vitest';
import { costBreakdown } from './costBreakdown.js';
import { bucketRange, costSeries, MAX_COST_BUCKETS } from './costSeries.js';

const bucket = (bucketStartMs: number, totalUsd: number) => ({
  bucketStartMs,
  runs: 1,
  completedRuns: 1,
  totalUsd,
  failureUsd: 0,
  meanUsd: totalUsd,
  p50Usd: totalUsd,
  p95Usd: totalUsd,
  maxUsd: totalUsd,
});

describe('costSeries', () => {
  it('fills the buckets without runs with zeros, aligned to the epoch', () => {
    const s = costSeries([bucket(3_600_000, 1.5)], 1_800_000, 3 * 3_600_000, 3600);
    expect(s.buckets.map((b) => [b.bucketStartMs, b.totalUsd, b.runs])).toEqual([
      [0, 0, 0],
      [3_600_000, 1.5, 1],
      [7_200_000, 0, 0],
    ]);
  });

  it('refuses windows with too many buckets and bad intervals', () => {
    expect(() => bucketRange(0, (MAX_COST_BUCKETS + 1) * 1000, 1)).toThrow(
      expect.objectContaining({ code: 'BAD_REQUEST' }),
    );
    expect(bucketRange(0, MAX_COST_BUCKETS * 1000, 1)).toEqual({ first: 0, last: (MAX_COST_BUCKETS - 1) * 1000 });
    expect(() => bucketRange(0, 1000, 0.5)).toThrow(expect.objectContaining({ code: 'BAD_REQUEST' }));
  });
});

describe('costBreakdown', () => {
  it('gives each group its share of the total', () => {
    const g = (key: string, costUsd: number) => ({
      key,
      costUsd,
      calls: 1,
      billedCalls: 1,
      inputTokens: 0,
      cachedInputTokens: 0,
      outputTokens: 0,
      unpricedSpans: 0,
    });
    const b = costBreakdown('tool', [g('search', 3), g('', 1)]);
    expect(b.totalUsd).toBe(4);
    expect(b.rows.map((r) => [r.key, r.share])).toEqual([
      ['search', 0.75],
      ['', 0.25],
    ]);
    expect(costBreakdown('model', [g('m', 0)]).rows[0]!.share).toBe(0);
  });
});
