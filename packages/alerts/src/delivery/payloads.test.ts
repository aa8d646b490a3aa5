import { describe, expect, it } from 'vitest';
import { ruleSpec } from '../testing/ruleSpec.js';
import { summarise, valueText } from './payloads.js';

describe('summarise', () => {
  const rule = (spec: Parameters<typeof ruleSpec>[0]) => ({ id: 'rule_1', ...ruleSpec(spec) });

  it('says the value and the threshold in the metric’s unit, and the window in its largest unit', () => {
    expect(
      summarise({
        rule: rule({ metric: 'e2e_success', comparison: 'lt', threshold: 0.9 }),
        value: 0.625,
        sampleSize: 40,
        status: 'firing',
      }),
    ).toBe('e2e_success 62.5% < 90% over 1h (n = 40)');
    expect(
      summarise({
        rule: rule({ metric: 'run_latency', percentile: 'p99', comparison: 'gt', threshold: 1, windowSeconds: 600 }),
        value: 56_370,
        sampleSize: 12,
        status: 'resolved',
      }),
    ).toBe('run_latency p99 56.4 s no longer > 1 ms over 10m (n = 12)');
  });

  it('reads each unit', () => {
    expect(valueText('coordination_gap', -0.032)).toBe('-3.2 pts');
    expect(valueText('coordination_gap', 0.05)).toBe('+5 pts');
    expect(valueText('step_latency', 850)).toBe('850 ms');
    expect(valueText('step_latency', 750_000)).toBe('12.5 min');
    expect(valueText('cost_per_run', 0.023_14)).toBe('$0.0231');
    expect(valueText('total_cost', 12.5)).toBe('$12.50');
    expect(valueText('any_loop', 3)).toBe('3');
  });
});
