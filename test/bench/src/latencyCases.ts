import { autoInterval } from '@telltale/analytics';
import type { StoreRows } from '@telltale/store';
import { PLAIN_COST_HISTOGRAM } from './plainCostSql.js';
import type { BenchCase, ReferencePart } from './BenchCase.js';
import type { BenchContext } from './BenchContext.js';
import type { LooseRow } from './compareRows.js';
import {
  PLAIN_DURATION_HISTOGRAM,
  PLAIN_STEP_SERIES,
  PLAIN_TAIL,
  plainRunLatency,
  plainSpanLatency,
} from './plainLatencySql.js';

const OVERVIEW = { kind: 'overview', targetMs: 500, maxRatio: 2 } as const;
const GROUP_BYS = ['step', 'tool', 'model', 'agent', 'run'] as const;
const TOP_N = 10;
/** Bins of the run histograms (the dashboard's default). */
const HISTOGRAM_BUCKETS = 30;

/** Store rows as baseline rows; quantiles only where exact (digest groups are approximate by design). */
function latencyRow(r: StoreRows.LatencyGroupRow): LooseRow {
  const q = r.digest ? {} : Object.fromEntries(r.quantilesNs.map((v, i) => [`q${i}`, v]));
  return { key: r.key, service: r.service, n: r.count, mean_ns: r.meanNs, max_ns: r.maxNs, ...q };
}

function plainLatencyRows(rows: readonly LooseRow[]): LooseRow[] {
  return rows.map((r) => ({ ...r, ...Object.fromEntries((r.q as unknown[]).map((v, i) => [`q${i}`, v])) }));
}

function latencyPart(rows: readonly StoreRows.LatencyGroupRow[], keys: readonly string[]): ReferencePart {
  return { keys, values: ['n', 'mean_ns', 'max_ns', 'q0', 'q1', 'q2', 'q3', 'q4'], rows: rows.map(latencyRow) };
}

/** Percentiles per grouping, the step series, tail attribution. */
export function latencyCases(ctx: BenchContext): BenchCase[] {
  const { store, analytics, filter, prices, sql } = ctx;
  const intervalSeconds = autoInterval(filter.toUnixNano - filter.fromUnixNano);
  const percentiles: BenchCase[] = GROUP_BYS.map((groupBy) => ({
    name: `latencyPercentiles(${groupBy})`,
    method: 'Analytics#latencyPercentiles',
    ...OVERVIEW,
    ours: () => analytics.latencyPercentiles(filter, { groupBy }),
    plain: async () => ({
      groups: plainLatencyRows(
        await sql(groupBy === 'agent' || groupBy === 'run' ? plainRunLatency(groupBy) : plainSpanLatency(groupBy)),
      ),
    }),
    reference: async () => ({
      groups: latencyPart(await store.metrics.latencyPercentiles(filter, prices, { groupBy }), ['key', 'service']),
    }),
  }));
  return [
    ...percentiles,
    {
      name: `latencySeries(step, ${intervalSeconds} s)`,
      method: 'Analytics#latencySeries',
      ...OVERVIEW,
      ours: () => analytics.latencySeries(filter, { groupBy: 'step' }),
      plain: async () => ({
        buckets: plainLatencyRows(await sql(PLAIN_STEP_SERIES, { intervalMs: intervalSeconds * 1000, topN: TOP_N })),
      }),
      reference: async () => {
        const rows = await store.metrics.latencySeries(filter, prices, {
          groupBy: 'step',
          intervalSeconds,
          topN: TOP_N,
        });
        const part = latencyPart(rows, ['key', 'service', 'bucket_ms']);
        return { buckets: { ...part, rows: part.rows.map((r, i) => ({ ...r, bucket_ms: rows[i]?.bucketStartMs })) } };
      },
    },
    ...(['duration', 'cost'] as const).map((metric): BenchCase => ({
      name: `runHistogram(${metric})`,
      method: 'Analytics#runHistogram',
      ...OVERVIEW,
      ours: () => analytics.runHistogram(filter, { metric, buckets: HISTOGRAM_BUCKETS }),
      plain: async () => ({
        buckets: await sql(metric === 'duration' ? PLAIN_DURATION_HISTOGRAM : PLAIN_COST_HISTOGRAM, {
          buckets: HISTOGRAM_BUCKETS,
        }),
      }),
      reference: async () => {
        const h = await store.metrics.runHistogram(filter, prices, { metric, buckets: HISTOGRAM_BUCKETS });
        return {
          buckets: {
            keys: ['bucket'],
            values: ['runs'],
            rows: h.counts.map((runs, bucket) => ({ bucket, runs })).filter((r) => r.runs > 0),
          },
        };
      },
    })),
    {
      name: 'tailAttribution',
      method: 'Analytics#tailAttribution',
      ...OVERVIEW,
      ours: () => analytics.tailAttribution(filter),
      plain: async () => ({ steps: await sql(PLAIN_TAIL) }),
      reference: async () => {
        const t = await store.metrics.tailAttribution(filter, prices);
        return {
          steps: {
            keys: ['kind', 'step'],
            values: ['tail_ns', 'median_ns', 'completed', 'tail_runs', 'median_runs'],
            rows: t.steps.map((s) => ({
              kind: s.kind,
              step: s.stepName,
              tail_ns: s.tailSelfNs,
              median_ns: s.medianSelfNs,
              completed: t.completedRuns,
              tail_runs: t.tailRuns,
              median_runs: t.medianRuns,
            })),
          },
        };
      },
    },
  ];
}
