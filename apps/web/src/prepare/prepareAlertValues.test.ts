import { describe, expect, it } from 'vitest';
import { describeCondition, formatAlertValue, formatSeconds, parseSecondsInput } from './prepareAlertValues';

describe('alert values', () => {
  it('formats each metric in its own unit', () => {
    expect(formatAlertValue('e2e_success', 0.4)).toBe('40%');
    expect(formatAlertValue('coordination_gap', -0.125)).toBe('-12.5%');
    expect(formatAlertValue('run_latency', 1234)).toBe('1.23 s');
    expect(formatAlertValue('step_latency', 0.5)).toBe('500 µs');
    expect(formatAlertValue('cost_per_run', 0.0042)).toBe('$0.0042');
    expect(formatAlertValue('total_cost', 12.345)).toBe('$12.35');
    expect(formatAlertValue('any_loop', 3)).toBe('3');
    expect(formatAlertValue('loop_rate', undefined)).toBe('–');
    expect(formatAlertValue('loop_rate', null)).toBe('–');
  });

  it('describes a condition with its percentile or cause', () => {
    expect(describeCondition({ metric: 'e2e_success', comparison: 'lt', threshold: 0.8 })).toBe(
      'End-to-end success < 80%',
    );
    expect(describeCondition({ metric: 'run_latency', comparison: 'gte', threshold: 2000, percentile: 'p99' })).toBe(
      'Run latency (p99) ≥ 2 s',
    );
    expect(describeCondition({ metric: 'failure_cause_share', comparison: 'gt', threshold: 0.3, cause: 'loop' })).toBe(
      'Failure cause share (loop) > 30%',
    );
  });

  it('reads typed durations and writes them back exactly', () => {
    expect(parseSecondsInput('90')).toBe(90);
    expect(parseSecondsInput('90s')).toBe(90);
    expect(parseSecondsInput('10m')).toBe(600);
    expect(parseSecondsInput('1h 30m')).toBe(5400);
    expect(parseSecondsInput(' 2D ')).toBe(172_800);
    expect(parseSecondsInput('1.5h')).toBe(5400);
    for (const bad of ['', 'soon', '10 minutes', '5x', '-3s', 'm']) expect(parseSecondsInput(bad)).toBeUndefined();
    for (const seconds of [0, 1, 59, 60, 600, 3600, 5400, 86_400, 90_061])
      expect(parseSecondsInput(formatSeconds(seconds))).toBe(seconds);
    expect(formatSeconds(90_061)).toBe('1d 1h 1m 1s');
  });
});
