import { Router, type Request } from 'express';
import type { Analytics, LatencyIntervalSeconds } from '@telltale/analytics';
import { LATENCY_GROUP_BYS } from '@telltale/store';
import { z } from 'zod';
import type { ApiRegistry } from './ApiRegistry.js';
import { FILTER_QUERY, HistogramQuery, IntervalParam, groupByParam, resolveInterval, toAnalyticsFilter } from './analyticsParams.js';

const GroupBy = groupByParam(LATENCY_GROUP_BYS).describe('step name, tool, model, agent, or whole runs');

const PercentilesQuery = z.object({ ...FILTER_QUERY, groupBy: GroupBy.default('run') }).strict();

const SeriesQuery = z
  .object({
    ...FILTER_QUERY,
    groupBy: GroupBy.default('run'),
    interval: IntervalParam,
    top: z.coerce.number().int().min(1).max(50).default(10).describe('series for this many largest groups'),
  })
  .strict();

const TailQuery = z.object(FILTER_QUERY).strict();

/** `/latency/*`: duration percentiles, their series, and what drives the tail. */
export function latencyRouter(registry: ApiRegistry, analytics: Analytics, projectOf: (req: Request) => string): Router {
  const router = Router();
  registry.route(
    router,
    {
      method: 'get',
      path: '/latency/percentiles',
      tag: 'latency',
      summary: 'Duration percentiles (p50, p90, p95, p99, p99.9) per step, tool, model, agent, or of whole runs',
      query: PercentilesQuery,
      response: 'LatencyPercentiles: groupBy, levels, exactLimit, groups { key, service, count, meanNs, maxNs, percentilesNs, accuracy }',
    },
    ({ query, req }) => analytics.latencyPercentiles(toAnalyticsFilter(query, projectOf(req)), { groupBy: query.groupBy }),
  );
  registry.route(
    router,
    {
      method: 'get',
      path: '/latency/series',
      tag: 'latency',
      summary: 'Duration percentiles per time bucket for the largest groups',
      query: SeriesQuery,
      response: 'LatencySeries: groupBy, intervalSeconds, series { key, service, count, points { startUnixMs, count, percentilesNs, … } }',
    },
    ({ query, req }) => {
      const filter = toAnalyticsFilter(query, projectOf(req));
      const intervalSeconds = resolveInterval(query.interval, filter) as LatencyIntervalSeconds;
      return analytics.latencySeries(filter, { groupBy: query.groupBy, intervalSeconds, topN: query.top });
    },
  );
  registry.route(
    router,
    {
      method: 'get',
      path: '/latency/tail',
      tag: 'latency',
      summary: "Tail attribution: each step's share of run time in runs at or above p99 against runs at the median",
      query: TailQuery,
      response: 'TailAttribution: thresholdsNs, tailRuns, medianRuns, steps { stepName, kind, tailShare, medianShare, delta }, tailDriver',
    },
    ({ query, req }) => analytics.tailAttribution(toAnalyticsFilter(query, projectOf(req))),
  );
  registry.route(
    router,
    {
      method: 'get',
      path: '/latency/histogram',
      tag: 'latency',
      summary: 'Completed runs by whole-run duration, in equal-width buckets from the shortest to the longest',
      query: HistogramQuery,
      response: 'RunHistogram: metric, unit (ns), runs, min, max, bucketWidth, buckets { from, to, runs }',
    },
    ({ query, req }) => analytics.runHistogram(toAnalyticsFilter(query, projectOf(req)), { metric: 'duration', buckets: query.buckets }),
  );
  return router;
}
