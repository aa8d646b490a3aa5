import { describe, expect, it } from 'vitest';
import { summariseContentRounds, type ContentMode, type ContentRound } from './compareContent.js';
import { renderContentComparison } from './renderContentComparison.js';

function round(mode: ContentMode, sustainedSpansPerS: number, correct = true): ContentRound {
  return {
    mode,
    sustainedSpansPerS,
    ackedSpansPerS: sustainedSpansPerS,
    storedSpansPerS: sustainedSpansPerS,
    serverCpuUsPerSpan: 30,
    peakRssMiB: 900,
    bodyBytes: 300_000,
    ackedSpans: 1000,
    storedSpans: 1000,
    ackedContentSpans: mode === 'lean' ? 0 : 250,
    contentRows: mode === 'lean' ? 0 : 250,
    contentTextBytes: mode === 'lean' ? 0 : 250 * 1900,
    spanRowsWithContent: 0,
    loadBefore: 6,
    loadAfter: 8,
    correct,
  };
}

const facts = {
  measuredAt: '2026-11-26T00:00:00.000Z',
  command: 'npm run bench:ingest -- --compare-content 2048',
  contentBytes: 2048,
  seconds: 60,
  warmupSeconds: 5,
  concurrency: 48,
  loadAverage: { before: 6, after: 8 },
  machine: { nproc: 2, cpuModel: 'cpu', memoryGiB: 24, node: 'v20', clickhouse: '26' },
  llmSpansPerRequest: 138,
};

describe('summariseContentRounds', () => {
  it('compares the medians of each mode (the mean of the middle two of an even count)', () => {
    const c = summariseContentRounds(
      [round('lean', 40_000), round('content', 36_000), round('lean', 44_000), round('content', 40_000)],
      facts,
    );
    expect(c.leanMedian).toBe(42_000);
    expect(c.contentMedian).toBe(38_000);
    expect(c.ratio).toBeCloseTo(38 / 42, 10);
    expect(c.withinLimit).toBe(true);
    expect(c.correct).toBe(true);
    expect(renderContentComparison(c)).toContain('content / lean = **90.5%**');
  });

  it('misses below 85% of lean, and is not correct when any round lost spans or content', () => {
    const c = summariseContentRounds([round('lean', 50_000), round('content', 40_000, false)], facts);
    expect(c.ratio).toBe(0.8);
    expect(c.withinLimit).toBe(false);
    expect(c.correct).toBe(false);
    expect(renderContentComparison(c)).toContain('missed by 5.0 points');
  });
});
