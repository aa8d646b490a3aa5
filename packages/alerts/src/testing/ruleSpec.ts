import { AlertRuleSpecSchema, type AlertRuleSpec } from '../rules/AlertRule.js';

/** A valid rule spec for tests: end-to-end success below 0.9, overrides on top. */
export function ruleSpec(over: Partial<AlertRuleSpec> = {}): AlertRuleSpec {
  return AlertRuleSpecSchema.parse({
    name: 'e2e success',
    metric: 'e2e_success',
    comparison: 'lt',
    threshold: 0.9,
    minSampleSize: 10,
    ...over,
  });
}
