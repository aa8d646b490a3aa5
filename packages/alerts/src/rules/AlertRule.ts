import {
  ALERT_METRICS,
  COMPARISONS,
  PERCENTILES,
  alertFiltersSchema,
  alertRuleSpecSchema,
} from '@telltale/api-contract';
import type { AlertFilters, AlertMetric, AlertRuleSpec, Comparison, Percentile } from '@telltale/api-contract';

// The alert vocabulary and the rule spec are the API's: they live in the contract.
export { ALERT_METRICS, COMPARISONS, PERCENTILES };
export type { AlertFilters, AlertMetric, AlertRuleSpec, Comparison, Percentile };
/** A rule as the API takes it (defaults filled in). */
export const AlertRuleSpecSchema = alertRuleSpecSchema;
export const AlertFiltersSchema = alertFiltersSchema;

/** A stored rule: its spec, identity and times. */
export interface AlertRule extends AlertRuleSpec {
  id: string;
  projectId: string;
  createdAtMs: number;
  updatedAtMs: number;
}

/** Whether `value` breaches the rule's threshold. */
export function breaches(comparison: Comparison, value: number, threshold: number): boolean {
  switch (comparison) {
    case 'lt':
      return value < threshold;
    case 'lte':
      return value <= threshold;
    case 'gt':
      return value > threshold;
    case 'gte':
      return value >= threshold;
  }
}

export const COMPARISON_SYMBOL: Readonly<Record<Comparison, string>> = { lt: '<', lte: '≤', gt: '>', gte: '≥' };
