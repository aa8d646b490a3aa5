import { Router, type Request } from 'express';
import type { Analytics, LatencyIntervalSeconds } from '@telltale/analytics';
import { API_ROUTES } from '@telltale/api-contract';
import type { ApiRegistry } from './ApiRegistry.js';
import { resolveInterval, toAnalyticsFilter } from './analyticsParams.js';

/** `/latency/*`: duration percentiles, their series, and what drives the tail. */
export function latencyRouter(
  registry: ApiRegistry,
  analytics: Analytics,
  projectOf: (req: Request) => string,
): Router {
  const router = Router();
  registry.route(
    router,
    {
      ...API_ROUTES['get /latency/percentiles'],
      tag: 'latency',
      summary: 'Duration percentiles (p50, p90, p95, p99, p99.9) per step, tool, model, agent, or of whole runs',
      returns:
        'LatencyPercentiles: groupBy, levels, exactLimit, groups { key, service, count, meanNs, maxNs, percentilesNs, accuracy }',
    },
    ({ query, req }) =>
      analytics.latencyPercentiles(toAnalyticsFilter(query, projectOf(req)), {
        groupBy: query.groupBy,
        precision: query.precision,
      }),
  );
  registry.route(
    router,
    {
      ...API_ROUTES['get /latency/series'],
      tag: 'latency',
      summary: 'Duration percentiles per time bucket for the largest groups',
      returns:
        'LatencySeries: groupBy, intervalSeconds, series { key, service, count, points { startUnixMs, count, percentilesNs, … } }',
    },
    ({ query, req }) => {
      const filter = toAnalyticsFilter(query, projectOf(req));
      const intervalSeconds = resolveInterval(query.interval, filter) as LatencyIntervalSeconds;
      return analytics.latencySeries(filter, {
        groupBy: query.groupBy,
        precision: query.precision,
        intervalSeconds,
        topN: query.top,
      });
    },
  );
  registry.route(
    router,
    {
      ...API_ROUTES['get /latency/tail'],
      tag: 'latency',
      summary: "Tail attribution: each step's share of run time in runs at or above p99 against runs at the median",
      returns:
        'TailAttribution: thresholdsNs, tailRuns, medianRuns, steps { stepName, kind, tailShare, medianShare, delta }, tailDriver',
    },
    ({ query, req }) => analytics.tailAttribution(toAnalyticsFilter(query, projectOf(req))),
  );
  registry.route(
    router,
    {
      ...API_ROUTES['get /latency/histogram'],
      tag: 'latency',
      summary: 'Completed runs by whole-run duration, in equal-width buckets from the shortest to the longest',
      returns: 'RunHistogram: metric, unit (ns), runs, min, max, bucketWidth, buckets { from, to, runs }',
    },
    ({ query, req }) =>
      analytics.runHistogram(toAnalyticsFilter(query, projectOf(req)), { metric: 'duration', buckets: query.buckets }),
  );
  return router;
}
