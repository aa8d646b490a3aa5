import { describe, expect, it } from 'vitest';
import { evaluateBars, type AgentMeasurement } from './evaluateBars.js';

const good: AgentMeasurement = {
  agent: 'good',
  service: 'svc',
  completedRuns: 100,
  successRate: 0.99,
  p99Ns: 1.5e9,
  loopRate: 0,
};
const bad: AgentMeasurement = {
  agent: 'bad',
  service: 'svc',
  completedRuns: 40,
  successRate: 0.5,
  p99Ns: 4e9,
  loopRate: 0.1,
};

describe('evaluateBars', () => {
  it('passes an agent inside every bar and fails each bar an agent misses, with the measured value', () => {
    const results = evaluateBars([good, bad], { minSuccess: 0.95, maxP99Ns: 2e9, maxLoopRate: 0.01 });
    expect(results.filter((r) => r.agent === 'good').every((r) => r.passed)).toBe(true);
    const failed = results.filter((r) => !r.passed);
    expect(failed.map((r) => [r.agent, r.bar, r.measured])).toEqual([
      ['bad', 'min-success', 0.5],
      ['bad', 'max-p99', 4e9],
      ['bad', 'max-loop-rate', 0.1],
    ]);
    expect(failed[0]!.message).toBe('FAIL bad (svc) min-success: 50.00% not ≥ 95.00% (40 runs)');
    expect(failed[1]!.message).toBe('FAIL bad (svc) max-p99: 4 s not ≤ 2 s (40 runs)');
  });

  it('checks only the bars asked for', () => {
    const results = evaluateBars([bad], { maxP99Ns: 5e9 });
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ bar: 'max-p99', passed: true, threshold: 5e9 });
  });

  it('bars are inclusive: exactly at the bar passes', () => {
    const [s, p, l] = evaluateBars([{ ...good, successRate: 0.95, p99Ns: 2e9, loopRate: 0.01 }], {
      minSuccess: 0.95,
      maxP99Ns: 2e9,
      maxLoopRate: 0.01,
    });
    expect([s!.passed, p!.passed, l!.passed]).toEqual([true, true, true]);
  });

  it('fails on no data rather than passing silently', () => {
    const results = evaluateBars(
      [
        { ...good, completedRuns: 0 },
        { ...good, agent: 'nolat', p99Ns: null },
      ],
      { minSuccess: 0.5, maxP99Ns: 1e10 },
    );
    expect(results.map((r) => [r.agent, r.bar, r.passed])).toEqual([
      ['good', 'min-success', false],
      ['good', 'max-p99', false],
      ['nolat', 'min-success', true],
      ['nolat', 'max-p99', false],
    ]);
    expect(results[0]!.message).toContain('no data');
  });
});
