import { Router, type Request } from 'express';
import type { Analytics } from '@telltale/analytics';
import { API_ROUTES } from '@telltale/api-contract';
import type { ApiRegistry } from './ApiRegistry.js';
import { resolveInterval, toAnalyticsFilter } from './analyticsParams.js';

/** `/cost/*`: run cost distribution, wasted cost, breakdown, series (priced with the project's table). */
export function costRouter(registry: ApiRegistry, analytics: Analytics, projectOf: (req: Request) => string): Router {
  const router = Router();
  registry.route(
    router,
    {
      ...API_ROUTES['get /cost/summary'],
      tag: 'cost',
      summary:
        'Cost per run (mean, p50, p95, p99, max), per successful run, per success, wasted on failed and looping runs, unpriced usage',
      returns:
        'CostSummary (USD): runs, totalUsd, perRun, perSuccessfulRunUsd, perSuccessUsd, wasted { failedRunsUsd, loopingRunsUsd, totalUsd, share }, looping { runs, costUsd, failedRuns, failedUsd }, tokens, unpriced',
    },
    ({ query, req }) => analytics.cost(toAnalyticsFilter(query, projectOf(req))),
  );
  registry.route(
    router,
    {
      ...API_ROUTES['get /cost/breakdown'],
      tag: 'cost',
      summary: 'Cost by step name, tool or model, most expensive first, with shares of the total',
      returns:
        'CostBreakdown: groupBy, totalUsd, rows { key, costUsd, share, calls, billedCalls, tokens, unpricedSpans }',
    },
    ({ query, req }) => analytics.costBreakdown(toAnalyticsFilter(query, projectOf(req)), { groupBy: query.groupBy }),
  );
  registry.route(
    router,
    {
      ...API_ROUTES['get /cost/histogram'],
      tag: 'cost',
      summary: 'Completed runs by run cost, in equal-width buckets from the cheapest to the most expensive',
      returns: 'RunHistogram: metric, unit (usd), runs, min, max, bucketWidth, buckets { from, to, runs }',
    },
    ({ query, req }) =>
      analytics.runHistogram(toAnalyticsFilter(query, projectOf(req)), { metric: 'cost', buckets: query.buckets }),
  );
  registry.route(
    router,
    {
      ...API_ROUTES['get /cost/series'],
      tag: 'cost',
      summary: 'Cost per time bucket (by run start); empty buckets as zeros',
      returns:
        'CostSeries: intervalSeconds, buckets { bucketStartMs, runs, completedRuns, totalUsd, failureUsd, meanUsd, p50Usd, p95Usd, maxUsd }',
    },
    ({ query, req }) => {
      const filter = toAnalyticsFilter(query, projectOf(req));
      return analytics.costSeries(filter, { intervalSeconds: resolveInterval(query.interval, filter) });
    },
  );
  return router;
}
