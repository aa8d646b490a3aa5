import type { StoreRows } from '@telltale/store';
import { describe, expect, it } from 'vitest';
import { costReport } from './costReport.js';

const STATS: StoreRows.RunCostStats = {
  runs: 10,
  successRuns: 6,
  failureRuns: 3,
  incompleteRuns: 1,
  totalUsd: 2.5,
  successUsd: 1.2,
  failureUsd: 0.9,
  incompleteUsd: 0.4,
  meanUsd: 0.2333,
  p50Usd: 0.2,
  p95Usd: 0.5,
  p99Usd: 0.5,
  maxUsd: 0.5,
  inputTokens: 1000,
  outputTokens: 200,
  cachedInputTokens: 300,
  unpricedSpans: 2,
};

describe('costReport', () => {
  it('derives cost per successful run, per success and wasted cost on failures', () => {
    const r = costReport(STATS, [{ model: 'x', spans: 2, inputTokens: 10, cachedInputTokens: 0, outputTokens: 1 }]);
    expect(r.runs).toEqual({ total: 10, success: 6, failure: 3, incomplete: 1, completed: 9 });
    expect(r.perSuccessfulRunUsd).toBeCloseTo(0.2, 15);
    expect(r.perSuccessUsd).toBeCloseTo(2.5 / 6, 15);
    expect(r.wasted).toEqual({ failedRunsUsd: 0.9, loopingRunsUsd: null, totalUsd: 0.9, share: 0.9 / 2.5 });
    expect(r.unpriced).toEqual({
      spans: 2,
      byModel: [{ model: 'x', spans: 2, inputTokens: 10, cachedInputTokens: 0, outputTokens: 1 }],
    });
    expect(r.perRun).toEqual({ meanUsd: 0.2333, p50Usd: 0.2, p95Usd: 0.5, p99Usd: 0.5, maxUsd: 0.5 });
    expect(r.tokens).toEqual({ input: 1000, cachedInput: 300, output: 200 });
  });

  it('adds looping runs that did not fail to the waste', () => {
    const r = costReport(STATS, [], { runs: 1, costUsd: 0.35, failedRuns: 2, failedUsd: 0.6 });
    expect(r.wasted.loopingRunsUsd).toBe(0.35);
    expect(r.looping).toEqual({ runs: 1, costUsd: 0.35, failedRuns: 2, failedUsd: 0.6 });
    expect(costReport(STATS, []).looping).toBeNull();
    expect(r.wasted.totalUsd).toBeCloseTo(1.25, 15);
    expect(r.wasted.share).toBeCloseTo(0.5, 15);
  });

  it('has no per-success cost without successes and no share without spend', () => {
    const r = costReport({ ...STATS, successRuns: 0, successUsd: 0, totalUsd: 0, failureUsd: 0 }, []);
    expect(r.perSuccessfulRunUsd).toBeNull();
    expect(r.perSuccessUsd).toBeNull();
    expect(r.wasted.share).toBe(0);
  });
});
