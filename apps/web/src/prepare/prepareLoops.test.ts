import { describe, expect, it } from 'vitest';
import { failureBreakdownSchema, loopRateSchema } from '@telltale/api-contract';
import { costSummary, detectionJson, loopsReport } from '../testing/analyticsFixtures';
import { prepareLoopCost, prepareLoopKinds, prepareLoopRate, prepareLoopRows } from './prepareLoops';
import { prepareLoopsOptions } from './prepareLoopsOptions';

const failures = (loop: number) =>
  failureBreakdownSchema.parse({
    failedRuns: 20,
    causes: [
      { cause: 'loop', runs: loop, share: loop / 20 },
      { cause: 'tool_failure', runs: 20 - loop, share: (20 - loop) / 20 },
    ],
  });

describe('prepareLoopRows', () => {
  it('says what repeated for each kind, with count and waste, linking to the run', () => {
    const report = loopsReport([
      detectionJson('r/1', 'repeated_action', { toolName: 'search', argsHash: 'ab12' }),
      detectionJson('r2', 'no_progress', { stateHash: 's9' }),
      detectionJson('r3', 'no_progress', { outputHash: 'o1' }),
      detectionJson('r4', 'ping_pong', { cycle: ['read', 'write'] }),
      detectionJson('r5', 'runaway', { stepLimit: 1200 }),
    ]);
    const rows = prepareLoopRows(report);
    expect(rows.map((r) => [r.runId, r.kindLabel, r.subject])).toEqual([
      ['r/1', 'Repeated action', 'search(ab12)'],
      ['r2', 'No progress', 'state s9'],
      ['r3', 'No progress', 'failed validation o1'],
      ['r4', 'Ping-pong', 'read ⇄ write'],
      ['r5', 'Runaway', 'more than 1,200 steps'],
    ]);
    expect(rows[0]).toMatchObject({ href: '/runs/r%2F1', count: 4, wastedTimeLabel: '3 s', wastedCostLabel: '$0.03' });
  });
});

describe('prepareLoopKinds', () => {
  it('lists every kind, those with detections first', () => {
    const kinds = prepareLoopKinds(loopsReport([]));
    expect(kinds.map((k) => [k.kind, k.detections])).toEqual([
      ['repeated_action', 3],
      ['ping_pong', 1],
      ['no_progress', 0],
      ['runaway', 0],
    ]);
  });
});

describe('prepareLoopCost', () => {
  it('says what looping runs cost and their share of spend, with rate, loop failures and the repeats', () => {
    const cost = costSummary({ looping: { runs: 1, costUsd: 1.25, failedRuns: 5, failedUsd: 2 } });
    const view = prepareLoopCost(loopsReport([]), cost, failures(5));
    expect(view).toMatchObject({
      loopingRuns: 3,
      runs: 60,
      loopFailures: 5,
      costsMoney: true,
      eyebrow: 'Yes, loops cost money',
      headline: 'Looping runs cost $3.25 (26% of spend)',
    });
    expect(view.loopingRunsUsd).toBeCloseTo(3.25, 12);
    expect(view.spendShare).toBeCloseTo(0.26, 12);
    expect(view.loopRate).toBeCloseTo(0.05, 12);
    expect(view.detail).toBe(
      '3 of 60 runs looped (5%) · 5 failed in the loop ($2.00) · the repeats alone took 9 s and $0.12',
    );
  });

  it('falls back to the repeats when the server does not report looping runs', () => {
    const view = prepareLoopCost(loopsReport([]), costSummary(), failures(0));
    expect(view).toMatchObject({
      loopingRunsUsd: null,
      spendShare: null,
      costsMoney: true,
      headline: 'Loop repeats cost $0.12',
    });
    expect(view.detail).not.toContain('failed in the loop');
  });

  it('says so when loops cost time but no money, or when there are none', () => {
    const free = loopsReport([], { runsFlagged: 2, detections: 2, wastedNs: 4_000_000_000, wastedCostUsd: 0 });
    const zero = costSummary({ looping: { runs: 2, costUsd: 0, failedRuns: 0, failedUsd: 0 } });
    expect(prepareLoopCost(free, zero, failures(0))).toMatchObject({
      costsMoney: false,
      eyebrow: 'Not in money, but in time',
      headline: 'Loops cost 4 s, but no money',
    });
    const none = loopsReport([], { runsFlagged: 0, detections: 0, wastedNs: 0, wastedCostUsd: 0 });
    expect(prepareLoopCost(none, costSummary(), failures(0))).toMatchObject({
      costsMoney: false,
      headline: 'No loops in this window',
      detail: '0 of 60 runs looped (0%)',
    });
  });
});

describe('prepareLoopRate', () => {
  it('keeps runs and looping runs per bucket, the rate only where there were runs', () => {
    const rate = loopRateSchema.parse({
      intervalSeconds: 60,
      points: [
        { bucketStartMs: 0, runs: 10, loopingRuns: 2, rate: 0.2 },
        { bucketStartMs: 60000, runs: 0, loopingRuns: 0, rate: 0 },
      ],
    });
    expect(prepareLoopRate(rate, (ms) => `t${ms}`)).toEqual([
      { startMs: 0, label: 't0', runs: 10, loopingRuns: 2, rate: 0.2 },
      { startMs: 60000, label: 't60000', runs: 0, loopingRuns: 0, rate: null },
    ]);
  });
});

describe('prepareLoopsOptions', () => {
  it('reads kind, order and page with defaults', () => {
    expect(prepareLoopsOptions(new URLSearchParams('kind=ping_pong&orderBy=recent&page=3'))).toEqual({
      kind: 'ping_pong',
      orderBy: 'recent',
      page: 3,
    });
    expect(prepareLoopsOptions(new URLSearchParams('kind=spin&orderBy=x&page=0'))).toEqual({
      kind: undefined,
      orderBy: 'wasted_cost',
      page: 1,
    });
  });
});
