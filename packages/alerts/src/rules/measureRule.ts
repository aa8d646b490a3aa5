import type { Analytics } from '@telltale/analytics';
import type { AnalyticsFilter } from '@telltale/store';
import type { AlertRuleSpec, Percentile } from './AlertRule.js';

/** A metric's value over a rule's window (undefined: nothing to measure) and how many samples it rests on. */
export interface Observation {
  value: number | undefined;
  sample: number;
}

const NS_PER_MS = 1_000_000n;

/** The analytics filter of a rule's window ending at `nowMs`. */
export function ruleFilter(projectId: string, rule: AlertRuleSpec, nowMs: number): AnalyticsFilter {
  const f = rule.filters;
  return {
    projectId,
    fromUnixNano: BigInt(Math.floor(nowMs - rule.windowSeconds * 1000)) * NS_PER_MS,
    toUnixNano: BigInt(Math.floor(nowMs)) * NS_PER_MS,
    ...(f.service === undefined ? {} : { service: f.service }),
    ...(f.agent === undefined ? {} : { agent: f.agent }),
    ...(f.step === undefined ? {} : { stepName: f.step }),
    ...(f.tool === undefined ? {} : { tool: f.tool }),
    ...(f.model === undefined ? {} : { model: f.model }),
  };
}

const orUndefined = (v: number | null | undefined): number | undefined =>
  v === null || v === undefined || Number.isNaN(v) ? undefined : v;

/**
 * Measures a rule's metric with the analytics facade — the same numbers the
 * API and `telltale report` show.
 */
export async function measureRule(
  analytics: Analytics,
  projectId: string,
  rule: AlertRuleSpec,
  nowMs: number,
): Promise<Observation> {
  const filter = ruleFilter(projectId, rule, nowMs);
  const percentile: Percentile = rule.percentile ?? 'p95';
  switch (rule.metric) {
    case 'e2e_success':
    case 'coordination_gap': {
      const r = await analytics.reliability(filter);
      const estimate = rule.metric === 'e2e_success' ? r.observed : r.gap;
      return { value: orUndefined(estimate.value), sample: r.runs.success + r.runs.failure };
    }
    case 'step_success': {
      const step = (await analytics.reliability(filter)).steps.find((s) => s.stepName === rule.filters.step);
      return { value: orUndefined(step?.eventualSuccess.value), sample: step?.groups ?? 0 };
    }
    case 'step_latency':
    case 'run_latency': {
      const groupBy = rule.metric === 'step_latency' ? 'step' : 'run';
      const { groups } = await analytics.latencyPercentiles(filter, { groupBy });
      const group = rule.metric === 'step_latency' ? groups.find((g) => g.key === rule.filters.step) : groups[0];
      if (group === undefined || group.count === 0) return { value: undefined, sample: 0 };
      return { value: group.percentilesNs[percentile] / 1e6, sample: group.count };
    }
    case 'loop_rate':
    case 'any_loop': {
      const { points } = await analytics.loopRate(filter, { intervalSeconds: rule.windowSeconds });
      const runs = points.reduce((s, p) => s + p.runs, 0);
      const looping = points.reduce((s, p) => s + p.loopingRuns, 0);
      if (rule.metric === 'any_loop') return { value: looping, sample: runs };
      return { value: runs === 0 ? undefined : looping / runs, sample: runs };
    }
    case 'cost_per_run':
    case 'total_cost': {
      const c = await analytics.cost(filter, { looping: false }); // totals and percentiles only: no loop detection
      if (rule.metric === 'total_cost') return { value: c.totalUsd, sample: c.runs.total };
      const perRun = { p50: c.perRun.p50Usd, p90: undefined, p95: c.perRun.p95Usd, p99: c.perRun.p99Usd }[percentile];
      return { value: c.runs.completed === 0 ? undefined : perRun, sample: c.runs.completed };
    }
    case 'failure_cause_share': {
      const f = await analytics.failures(filter);
      const share = f.causes.find((c) => c.cause === rule.cause)?.share;
      return { value: orUndefined(share), sample: f.failedRuns };
    }
  }
}
