import { type CostGroupBy } from '@telltale/semconv';
import type { BenchCase } from './BenchCase.js';
import type { BenchContext } from './BenchContext.js';
import { PLAIN_COST_SERIES, PLAIN_RUN_COST, PLAIN_UNPRICED, plainCostBreakdown } from './plainCostSql.js';

const OVERVIEW = { kind: 'overview', targetMs: 500, maxRatio: 2 } as const;
const GROUP_BYS: readonly CostGroupBy[] = ['step', 'tool', 'model'];
/** The cost series interval (36 buckets over the 6-hour window). */
export const COST_INTERVAL_SECONDS = 600;

/** Cost summary, breakdowns, series. */
export function costCases(ctx: BenchContext): BenchCase[] {
  const { store, analytics, filter, prices, sql } = ctx;
  const breakdowns: BenchCase[] = GROUP_BYS.map((groupBy) => ({
    name: `costBreakdown(${groupBy})`,
    method: 'Analytics#costBreakdown',
    ...OVERVIEW,
    ours: () => analytics.costBreakdown(filter, { groupBy }),
    plain: async () => ({ groups: await sql(plainCostBreakdown(groupBy)) }),
    reference: async () => ({
      groups: {
        keys: ['key'],
        values: ['cost_sum', 'calls', 'billed_calls', 'in_tok', 'cached_tok', 'out_tok', 'unpriced_spans'],
        rows: (await store.metrics.costGroups(filter, prices, groupBy)).map((g) => ({
          key: g.key,
          cost_sum: g.costUsd,
          calls: g.calls,
          billed_calls: g.billedCalls,
          in_tok: g.inputTokens,
          cached_tok: g.cachedInputTokens,
          out_tok: g.outputTokens,
          unpriced_spans: g.unpricedSpans,
        })),
      },
    }),
  }));
  return [
    {
      name: 'cost',
      method: 'Analytics#cost',
      ...OVERVIEW,
      ours: () => analytics.cost(filter),
      plain: async () => {
        const [runs, unpriced] = await Promise.all([sql(PLAIN_RUN_COST), sql(PLAIN_UNPRICED)]);
        return { runs, unpriced };
      },
      reference: async () => {
        const [s, unpriced] = await Promise.all([
          store.metrics.runCostStats(filter, prices),
          store.metrics.unpricedUsage(filter, prices),
        ]);
        return {
          runs: {
            keys: [],
            values: [
              'runs',
              'success_runs',
              'failure_runs',
              'incomplete_runs',
              'total',
              'success_cost',
              'failure_cost',
              'incomplete_cost',
              'mean_cost',
              'p50',
              'p95',
              'p99',
              'max_cost',
              'input_tokens',
              'output_tokens',
              'cached_input_tokens',
              'unpriced_spans',
            ],
            rows: [
              {
                runs: s.runs,
                success_runs: s.successRuns,
                failure_runs: s.failureRuns,
                incomplete_runs: s.incompleteRuns,
                total: s.totalUsd,
                success_cost: s.successUsd,
                failure_cost: s.failureUsd,
                incomplete_cost: s.incompleteUsd,
                mean_cost: s.meanUsd,
                p50: s.p50Usd,
                p95: s.p95Usd,
                p99: s.p99Usd,
                max_cost: s.maxUsd,
                input_tokens: s.inputTokens,
                output_tokens: s.outputTokens,
                cached_input_tokens: s.cachedInputTokens,
                unpriced_spans: s.unpricedSpans,
              },
            ],
          },
          unpriced: {
            keys: ['model'],
            values: ['spans', 'in_tok', 'cached_tok', 'out_tok'],
            rows: unpriced.map((u) => ({
              model: u.model,
              spans: u.spans,
              in_tok: u.inputTokens,
              cached_tok: u.cachedInputTokens,
              out_tok: u.outputTokens,
            })),
          },
        };
      },
    },
    ...breakdowns,
    {
      name: `costSeries(${COST_INTERVAL_SECONDS} s)`,
      method: 'Analytics#costSeries',
      ...OVERVIEW,
      ours: () => analytics.costSeries(filter, { intervalSeconds: COST_INTERVAL_SECONDS }),
      plain: async () => ({ buckets: await sql(PLAIN_COST_SERIES, { intervalMs: COST_INTERVAL_SECONDS * 1000 }) }),
      reference: async () => ({
        buckets: {
          keys: ['bucket_ms'],
          values: ['runs', 'completed_runs', 'total', 'failure_cost', 'mean_cost', 'p50', 'p95', 'max_cost'],
          rows: (await store.metrics.costSeries(filter, prices, COST_INTERVAL_SECONDS)).map((b) => ({
            bucket_ms: b.bucketStartMs,
            runs: b.runs,
            completed_runs: b.completedRuns,
            total: b.totalUsd,
            failure_cost: b.failureUsd,
            mean_cost: b.meanUsd,
            p50: b.p50Usd,
            p95: b.p95Usd,
            max_cost: b.maxUsd,
          })),
        },
      }),
    },
  ];
}
