import { describe, expect, it } from 'vitest';
import { costBreakdownSchema, costSeriesSchema, failureBreakdownSchema } from '@telltale/api-contract';
import { costSummary } from '../testing/analyticsFixtures';
import { usd } from '../units';
import {
  prepareCostBars,
  prepareCostDistribution,
  prepareCostSeries,
  prepareFailureCauses,
  loopingRunsDetail,
  trimEmptyEnds,
} from './prepareCost';

describe('prepareCostBars', () => {
  const breakdown = costBreakdownSchema.parse({
    groupBy: 'model',
    totalUsd: 10,
    rows: [
      { key: 'small', costUsd: 1, share: 0.1, calls: 50, unpricedSpans: 0 },
      { key: 'big', costUsd: 6, share: 0.6, calls: 10, unpricedSpans: 0 },
      { key: 'mid', costUsd: 2, share: 0.2, calls: 20, unpricedSpans: 3 },
      { key: 'tiny', costUsd: 1, share: 0.1, calls: 5, unpricedSpans: 0 },
    ],
  });

  it('names the group of spans without a key by what they lack', () => {
    const tools = costBreakdownSchema.parse({
      groupBy: 'tool',
      totalUsd: 1,
      rows: [{ key: '', costUsd: 1, share: 1, calls: 3, unpricedSpans: 0 }],
    });
    expect(prepareCostBars(tools)[0]?.label).toBe('(not a tool call)');
  });

  it('sorts by cost with bars relative to the largest and details', () => {
    const rows = prepareCostBars(breakdown);
    expect(rows.map((r) => [r.key, r.valueLabel])).toEqual([
      ['big', '$6.00'],
      ['mid', '$2.00'],
      ['small', '$1.00'],
      ['tiny', '$1.00'],
    ]);
    expect(rows[1]?.bar).toBeCloseTo(1 / 3, 12);
    expect(rows[1]?.detail).toBe('20% · 20 calls · 3 unpriced');
  });

  it('sums the rows past the limit into one', () => {
    const rows = prepareCostBars(breakdown, 2);
    expect(rows.map((r) => [r.label, r.value])).toEqual([
      ['big', 6],
      ['mid', 2],
      ['2 more', 2],
    ]);
  });
});

describe('prepareCostDistribution', () => {
  it('orders P50, mean, P95, P99, max; nothing without completed runs', () => {
    expect(prepareCostDistribution(costSummary()).map((b) => [b.key, b.usd, b.valueLabel])).toEqual([
      ['p50', 0.1, '$0.10'],
      ['mean', 0.125, '$0.13'],
      ['p95', 0.3, '$0.30'],
      ['p99', 0.9, '$0.90'],
      ['max', 1.2, '$1.20'],
    ]);
    expect(prepareCostDistribution(costSummary({ completed: 0 }))).toEqual([]);
  });
});

describe('loopingRunsDetail', () => {
  it('splits the looping runs by outcome, at the precision of the scale', () => {
    const looping = (runs: number, costUsd: number, failedRuns: number, failedUsd: number) => ({
      runs,
      costUsd: usd(costUsd),
      failedRuns,
      failedUsd: usd(failedUsd),
    });
    expect(loopingRunsDetail(looping(8, 0.4270764, 24, 1.4071329), 5.9)).toBe(
      '32 runs: 24 failed ($1.41), 8 did not ($0.43)',
    );
    expect(loopingRunsDetail(looping(3, 0.02, 0, 0), 0.5)).toBe('3 runs, none failed');
    expect(loopingRunsDetail(looping(0, 0, 1, 0.02), 0.5)).toBe('1 run, all failed');
  });
});

describe('prepareCostSeries and trimEmptyEnds', () => {
  it('keeps totals and leaves run-cost percentiles out of buckets without completed runs', () => {
    const series = costSeriesSchema.parse({
      intervalSeconds: 60,
      buckets: [
        {
          bucketStartMs: 0,
          runs: 0,
          completedRuns: 0,
          totalUsd: 0,
          failureUsd: 0,
          meanUsd: 0,
          p50Usd: 0,
          p95Usd: 0,
          maxUsd: 0,
        },
        {
          bucketStartMs: 60000,
          runs: 2,
          completedRuns: 2,
          totalUsd: 1,
          failureUsd: 0.4,
          meanUsd: 0.5,
          p50Usd: 0.4,
          p95Usd: 0.6,
          maxUsd: 0.6,
        },
        {
          bucketStartMs: 120000,
          runs: 1,
          completedRuns: 0,
          totalUsd: 0.1,
          failureUsd: 0,
          meanUsd: 0,
          p50Usd: 0,
          p95Usd: 0,
          maxUsd: 0,
        },
        {
          bucketStartMs: 180000,
          runs: 0,
          completedRuns: 0,
          totalUsd: 0,
          failureUsd: 0,
          meanUsd: 0,
          p50Usd: 0,
          p95Usd: 0,
          maxUsd: 0,
        },
      ],
    });
    const points = trimEmptyEnds(prepareCostSeries(series, String));
    expect(points.map((p) => [p.startMs, p.totalUsd, p.p50Usd])).toEqual([
      [60000, 1, 0.4],
      [120000, 0.1, null],
    ]);
    expect(trimEmptyEnds([{ runs: 0 }, { runs: 0 }])).toEqual([]);
  });
});

describe('prepareFailureCauses', () => {
  it('lists causes with runs, most first, with their share and colour', () => {
    const rows = prepareFailureCauses(
      failureBreakdownSchema.parse({
        failedRuns: 10,
        causes: [
          { cause: 'loop', runs: 2, share: 0.2 },
          { cause: 'timeout', runs: 0, share: 0 },
          { cause: 'tool_failure', runs: 8, share: 0.8 },
        ],
      }),
    );
    expect(rows.map((r) => [r.key, r.label, r.value, r.detail, r.bar])).toEqual([
      ['tool_failure', 'Tool failure', 8, '80% of failed runs', 1],
      ['loop', 'Loop', 2, '20% of failed runs', 0.25],
    ]);
    expect(rows[1]?.color).toBe('#7c3aed');
  });
});
