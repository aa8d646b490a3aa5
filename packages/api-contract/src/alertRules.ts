import { z } from 'zod';
import { FAILURE_CAUSES } from '@telltale/semconv';

/**
 * The alert vocabulary and the rule spec the API takes (defaults filled in).
 * What a rule can watch, each computed by the analytics queries:
 * - `e2e_success`: observed end-to-end success O (0…1); sample = completed runs;
 * - `step_success`: eventual success p(s) of `filters.step`; sample = attempt groups;
 * - `coordination_gap`: G = O − P; sample = completed runs;
 * - `step_latency` / `run_latency`: a duration percentile of `filters.step` / of runs, in ms; sample = spans / runs;
 * - `loop_rate`: looping runs / runs; `any_loop`: looping runs (a count), also
 *   raised live for one run by a loop detector;
 * - `cost_per_run`: a run-cost percentile in USD; `total_cost`: USD spent in the window;
 * - `failure_cause_share`: share of failed runs whose primary cause is `cause`; sample = failed runs.
 */
export const ALERT_METRICS = [
  'e2e_success',
  'step_success',
  'coordination_gap',
  'step_latency',
  'run_latency',
  'loop_rate',
  'any_loop',
  'cost_per_run',
  'total_cost',
  'failure_cause_share',
] as const;
export type AlertMetric = (typeof ALERT_METRICS)[number];

export const COMPARISONS = ['lt', 'lte', 'gt', 'gte'] as const;
export type Comparison = (typeof COMPARISONS)[number];

export const PERCENTILES = ['p50', 'p90', 'p95', 'p99'] as const;
export type Percentile = (typeof PERCENTILES)[number];

export const DESTINATION_FORMATS = ['standard', 'slack', 'alertmanager'] as const;
export type DestinationFormat = (typeof DESTINATION_FORMATS)[number];

export const ALERT_STATES = ['ok', 'pending', 'firing', 'resolved'] as const;
export type AlertStateName = (typeof ALERT_STATES)[number];

/** Metrics that take a percentile, and those that need `filters.step`. */
export const METRICS_WITH_PERCENTILE: ReadonlySet<AlertMetric> = new Set([
  'step_latency',
  'run_latency',
  'cost_per_run',
]);
export const METRICS_NEEDING_STEP: ReadonlySet<AlertMetric> = new Set(['step_success', 'step_latency']);

/** What a metric's values (and so its thresholds) are: a fraction 0…1, milliseconds, US dollars, or a count of runs. */
export type AlertMetricUnit = 'fraction' | 'milliseconds' | 'usd' | 'count';
export const ALERT_METRIC_UNIT: Readonly<Record<AlertMetric, AlertMetricUnit>> = {
  e2e_success: 'fraction',
  step_success: 'fraction',
  // a difference of two fractions, from -1 to 1
  coordination_gap: 'fraction',
  step_latency: 'milliseconds',
  run_latency: 'milliseconds',
  loop_rate: 'fraction',
  any_loop: 'count',
  cost_per_run: 'usd',
  total_cost: 'usd',
  failure_cause_share: 'fraction',
};

/** The thresholds a metric's values can cross: one outside could never fire, or always would. */
export function thresholdRange(metric: AlertMetric): { min: number; max: number; what: string } {
  if (metric === 'coordination_gap') return { min: -1, max: 1, what: 'from -1 to 1 (a difference of two fractions)' };
  const unit = ALERT_METRIC_UNIT[metric];
  if (unit === 'fraction') return { min: 0, max: 1, what: 'a fraction from 0 to 1' };
  const of = { milliseconds: 'ms', usd: 'USD', count: 'looping runs' }[unit];
  return { min: 0, max: Number.POSITIVE_INFINITY, what: `at least 0 (${of})` };
}

export const ALERT_FILTER_KEYS = ['service', 'agent', 'step', 'tool', 'model'] as const;
export type AlertFilterKey = (typeof ALERT_FILTER_KEYS)[number];

const FilterValue = z.string().min(1).max(256);
export const alertFiltersSchema = z
  .object({
    service: FilterValue.optional(),
    agent: FilterValue.optional(),
    step: FilterValue.optional(),
    tool: FilterValue.optional(),
    model: FilterValue.optional(),
  })
  .strict();
export type AlertFilters = z.infer<typeof alertFiltersSchema>;

const LabelName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'label names are letters, digits and _ (Prometheus style)');

/** A rule as the API takes it (defaults filled in); the dashboard's form checks the same. */
export const alertRuleSpecSchema = z
  .object({
    name: z.string().min(1, 'a rule needs a name').max(200),
    description: z.string().max(2000).default(''),
    enabled: z.boolean().default(true),
    metric: z.enum(ALERT_METRICS),
    /** Latency and cost-per-run metrics (default p95). */
    percentile: z.enum(PERCENTILES).optional(),
    /** `failure_cause_share` only. */
    cause: z.enum(FAILURE_CAUSES).optional(),
    comparison: z.enum(COMPARISONS),
    threshold: z.number().finite(),
    windowSeconds: z
      .number()
      .int()
      .min(10, 'at least 10s')
      .max(31 * 86_400, 'at most 31d')
      .default(3600),
    evaluationIntervalSeconds: z.number().int().min(1, 'at least 1s').max(86_400, 'at most 1d').default(60),
    /** Below this many samples the rule neither starts nor resolves an alert. */
    minSampleSize: z.number().int().min(0).max(1_000_000_000, 'at most 1,000,000,000').default(1),
    /** The condition must hold this long (pending) before the alert fires. */
    forSeconds: z
      .number()
      .int()
      .min(0)
      .max(7 * 86_400, 'at most 7d')
      .default(0),
    /** A firing alert is notified again this often (0: only once). */
    repeatIntervalSeconds: z
      .number()
      .int()
      .min(0)
      .max(30 * 86_400, 'at most 30d')
      .default(4 * 3600),
    filters: alertFiltersSchema.default({}),
    labels: z.record(LabelName, z.string().max(512)).default({}),
    destinationIds: z.array(z.string().min(1).max(64)).max(20, 'at most 20 destinations').default([]),
  })
  .strict()
  .superRefine((rule, ctx) => {
    const range = thresholdRange(rule.metric);
    if (rule.threshold < range.min || rule.threshold > range.max)
      ctx.addIssue({
        code: 'custom',
        path: ['threshold'],
        message: `the threshold of ${rule.metric} is ${range.what}, got ${rule.threshold}`,
      });
    if (METRICS_NEEDING_STEP.has(rule.metric) && rule.filters.step === undefined) {
      ctx.addIssue({ code: 'custom', path: ['filters', 'step'], message: `metric ${rule.metric} needs a step filter` });
    }
    if (rule.metric === 'failure_cause_share' && rule.cause === undefined)
      ctx.addIssue({ code: 'custom', path: ['cause'], message: 'metric failure_cause_share needs a cause' });
    if (rule.metric !== 'failure_cause_share' && rule.cause !== undefined)
      ctx.addIssue({ code: 'custom', path: ['cause'], message: 'cause is for failure_cause_share only' });
    if (rule.percentile !== undefined && !METRICS_WITH_PERCENTILE.has(rule.metric)) {
      ctx.addIssue({
        code: 'custom',
        path: ['percentile'],
        message: `percentile is for ${[...METRICS_WITH_PERCENTILE].join(', ')} only`,
      });
    }
    if (rule.metric === 'cost_per_run' && rule.percentile === 'p90')
      ctx.addIssue({ code: 'custom', path: ['percentile'], message: 'cost per run has p50, p95 and p99' });
    if (Object.keys(rule.labels).length > 32)
      ctx.addIssue({ code: 'custom', path: ['labels'], message: 'at most 32 labels' });
  });
export type AlertRuleSpec = z.infer<typeof alertRuleSpecSchema>;
