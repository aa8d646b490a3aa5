import type { StoreRows } from '@telltale/store';
import { describe, expect, it } from 'vitest';
import { wilson } from '../stats/wilson.js';
import { compoundingCurve } from './compoundingCurve.js';
import { predictEndToEnd } from './predict.js';
import { reliabilityReport } from './reliabilityReport.js';

function step(
  agent: string,
  stepName: string,
  groups: number,
  anyOk: number,
  groupsInSuccessfulRuns: number,
): StoreRows.StepGroupStats {
  return {
    agent,
    service: 'svc',
    stepName,
    stepKind: 'act',
    groups,
    groupsInSuccessfulRuns,
    firstOk: anyOk,
    anyOk,
    failedFirst: groups - anyOk,
    recovered: 0,
    attempts: groups,
    okAttempts: anyOk,
    retryExtraNs: 0,
    retryExtraCostUsd: 0,
  };
}
function agent(name: string, success: number, failure: number): StoreRows.AgentRunStats {
  return {
    agent: name,
    service: 'svc',
    success,
    failure,
    incomplete: 0,
    stepExplainedFailures: failure,
    seamFailures: 0,
    fallbackRecoveries: 0,
  };
}

describe('predicted end-to-end success', () => {
  it('is the plain product for a fixed six-step pipeline (k = 1)', () => {
    const ps = [0.98, 0.95, 0.97, 0.96, 0.97, 0.98];
    const n = 100_000;
    const success = Math.round(n * ps.reduce((a, b) => a * b, 1));
    const stats = ps.map((p, i) => step('pipe', `s${i}`, n, Math.round(n * p), success));
    const { predicted, agents } = predictEndToEnd(stats, [agent('pipe', success, n - success)]);
    expect(predicted.value).toBeCloseTo(0.98 * 0.95 * 0.97 * 0.96 * 0.97 * 0.98, 6);
    expect(predicted.value).toBeCloseTo(0.8241, 3); // "≈ 0.83" in the design notes
    expect(predicted.low!).toBeLessThan(predicted.value!);
    expect(predicted.high!).toBeGreaterThan(predicted.value!);
    expect(predicted.high! - predicted.low!).toBeLessThan(0.01);
    expect(agents[0]!.groupsPerRun).toEqual({ s0: 1, s1: 1, s2: 1, s3: 1, s4: 1, s5: 1 });
  });

  it('raises p(s) to k(s), the mean groups per successful run', () => {
    // each successful run calls `search` twice; p(search) = 0.9 → 0.81
    const { predicted } = predictEndToEnd([step('a', 'search', 200, 180, 160)], [agent('a', 80, 20)]);
    expect(predicted.value).toBeCloseTo(0.81, 10);
  });

  it('weights agents by completed runs', () => {
    const stats = [step('a', 'x', 100, 50, 50), step('b', 'y', 300, 300, 300)];
    const { predicted } = predictEndToEnd(stats, [agent('a', 50, 50), agent('b', 300, 0)]);
    expect(predicted.value).toBeCloseTo((100 * 0.5 + 300 * 1) / 400, 10);
  });

  it('ranks the weakest link by what-if gain and computes the gap', () => {
    const stats = [step('a', 'good', 1000, 990, 780), step('a', 'bad', 1000, 800, 780)];
    const report = reliabilityReport(stats, [agent('a', 780, 220)], 0.99);
    expect(report.steps[0]!.stepName).toBe('bad');
    expect(report.steps[0]!.whatIfPredicted).toBeCloseTo(0.99 * 0.99, 10);
    expect(report.steps[0]!.whatIfGain).toBeCloseTo(0.99 * 0.99 - 0.99 * 0.8, 10);
    expect(report.observed.value).toBeCloseTo(0.78, 10);
    expect(report.gap.value).toBeCloseTo(0.78 - 0.99 * 0.8, 10);
  });
});

describe('wilson', () => {
  it('matches the textbook interval', () => {
    // 81 of 263: 0.3080, Wilson 95% ≈ [0.2553, 0.3662]
    const e = wilson(81, 263);
    expect(e.low).toBeCloseTo(0.2553, 3);
    expect(e.high).toBeCloseTo(0.3662, 3);
    expect(wilson(10, 10).high).toBeCloseTo(1, 12);
    expect(wilson(0, 0).value).toBeNull();
  });
});

describe('compounding curve', () => {
  it('recovers p̄ from p̄^n data', () => {
    const curve = compoundingCurve(
      [3, 6, 9].map((g) => ({ groups: g, runs: 1000, success: Math.round(1000 * 0.95 ** g) })),
    );
    expect(curve.perGroupSuccess).toBeCloseTo(0.95, 2);
    expect(curve.points[1]!.fitted).toBeCloseTo(0.95 ** 6, 2);
  });
});
