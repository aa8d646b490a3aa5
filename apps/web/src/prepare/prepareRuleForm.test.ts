import { describe, expect, it } from 'vitest';
import { rule } from '../testing/alertsFixtures';
import type { RuleFormValues } from './prepareRuleForm';
import { DEFAULT_RULE_FORM, percentileOptions, ruleToFormValues, toRuleSpec } from './prepareRuleForm';

const form = (change: Partial<RuleFormValues>): RuleFormValues => ({ ...DEFAULT_RULE_FORM, name: 'r', ...change });

function errorsOf(values: RuleFormValues) {
  const result = toRuleSpec(values);
  if (result.ok) throw new Error('expected errors');
  return result.errors;
}

describe('rule form', () => {
  it('turns the default form into the spec the server would default to', () => {
    expect(toRuleSpec(form({ name: '  checkout  ' }))).toEqual({
      ok: true,
      spec: {
        name: 'checkout',
        description: '',
        enabled: true,
        metric: 'e2e_success',
        comparison: 'lt',
        threshold: 0.8,
        windowSeconds: 3600,
        evaluationIntervalSeconds: 60,
        minSampleSize: 1,
        forSeconds: 0,
        repeatIntervalSeconds: 14_400,
        filters: {},
        labels: {},
        destinationIds: [],
      },
    });
  });

  it('round-trips a stored rule through the form unchanged', () => {
    const stored = rule({
      metric: 'step_latency',
      percentile: 'p99',
      comparison: 'gt',
      threshold: 1500,
      filters: { step: 'search', model: 'gpt-4o' },
      labels: { team: 'a', sev: '2' },
      forSeconds: 90,
    });
    const result = toRuleSpec(ruleToFormValues(stored));
    const { id: _id, projectId: _p, createdAtMs: _c, updatedAtMs: _u, ...spec } = stored;
    expect(result).toEqual({ ok: true, spec });
  });

  it('names the field of every problem', () => {
    expect(errorsOf(form({ name: ' ', threshold: 'high', window: '5s', interval: 'often', minSamples: '-1' }))).toEqual(
      {
        name: 'a rule needs a name',
        threshold: 'a number',
        window: 'at least 10s',
        interval: 'a duration such as 90s, 10m, 1h or 2d',
        minSamples: 'a whole number',
      },
    );
    expect(errorsOf(form({ metric: 'step_latency' }))).toEqual({
      'filters.step': 'metric step_latency needs a step filter',
    });
    expect(errorsOf(form({ metric: 'failure_cause_share' }))).toEqual({
      cause: 'metric failure_cause_share needs a cause',
    });
    expect(errorsOf(form({ labels: 'team=a\nnot a label' }))).toEqual({ labels: '"not a label" is not name=value' });
    expect(errorsOf(form({ labels: '1team=a' })).labels).toMatch(/Prometheus/);
    expect(errorsOf(form({ labels: 'a=1\na=2' }))).toEqual({ labels: 'label a appears twice' });
    expect(errorsOf(form({ repeat: '31d' }))).toEqual({ repeat: 'at most 30d' });
  });

  it('sends a percentile or cause only with a metric that takes it', () => {
    const latency = toRuleSpec(form({ metric: 'run_latency', percentile: 'p90', threshold: '2000' }));
    expect(latency.ok && latency.spec.percentile).toBe('p90');
    const success = toRuleSpec(form({ metric: 'e2e_success', percentile: 'p90', cause: 'loop' }));
    expect(success.ok && [success.spec.percentile, success.spec.cause]).toEqual([undefined, undefined]);
    const cause = toRuleSpec(
      form({ metric: 'failure_cause_share', cause: 'tool_failure', comparison: 'gt', threshold: '0.5' }),
    );
    expect(cause.ok && cause.spec.cause).toBe('tool_failure');
    expect(percentileOptions('cost_per_run')).toEqual(['p50', 'p95', 'p99']);
    expect(percentileOptions('e2e_success')).toEqual([]);
  });

  it('keeps filters that are set, trimmed, and the chosen destinations', () => {
    const result = toRuleSpec(
      form({
        filters: { service: ' shop ', agent: '', step: '', tool: 'search', model: ' ' },
        destinationIds: ['dst_1', 'dst_2'],
      }),
    );
    expect(result.ok && [result.spec.filters, result.spec.destinationIds]).toEqual([
      { service: 'shop', tool: 'search' },
      ['dst_1', 'dst_2'],
    ]);
  });
});
