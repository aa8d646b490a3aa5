import { Router, type Request } from 'express';
import type { Analytics } from '@telltale/analytics';
import { API_ROUTES } from '@telltale/api-contract';
import { LOOP_KIND_LABELS, LOOP_KINDS } from '@telltale/semconv';
import type { ApiRegistry } from './ApiRegistry.js';
import { resolveInterval, toAnalyticsFilter } from './analyticsParams.js';
import { LOOP_THRESHOLD_QUERY, loopOptionsOf } from './loopParams.js';

// The contract's queries plus the loop detection thresholds.
const LoopsQuery = API_ROUTES['get /loops'].query.extend(LOOP_THRESHOLD_QUERY);
const RateQuery = API_ROUTES['get /loops/rate'].query.extend(LOOP_THRESHOLD_QUERY);
const RunsQuery = API_ROUTES['get /loops/runs'].query.extend(LOOP_THRESHOLD_QUERY);

/** `/loops*`: loop detections with evidence, the loop rate, per-run flags. */
export function loopsRouter(registry: ApiRegistry, analytics: Analytics, projectOf: (req: Request) => string): Router {
  const router = Router();
  registry.route(
    router,
    {
      ...API_ROUTES['get /loops'],
      tag: 'loops',
      summary: `Loop detections (${LOOP_KINDS.map((k) => LOOP_KIND_LABELS[k].toLowerCase()).join(', ')}) with evidence, a page at a time, and totals per kind (runIds: of these runs, e.g. one run’s page)`,
      query: LoopsQuery,
      returns:
        'LoopsReport: detections { runId, agent, kind, variant, count, wastedNs, wastedCostUsd, evidence }, total, runs, byKind, overall, thresholds',
    },
    ({ query, req }) => {
      const filter = toAnalyticsFilter(query, projectOf(req));
      return analytics.loops(query.runIds === undefined ? filter : { ...filter, runIds: query.runIds }, {
        ...loopOptionsOf(query),
        limit: query.limit,
        offset: query.offset,
        orderBy: query.orderBy,
        ...(query.kind === undefined ? {} : { kind: query.kind }),
      });
    },
  );
  registry.route(
    router,
    {
      ...API_ROUTES['get /loops/rate'],
      tag: 'loops',
      summary: 'Runs, looping runs and the loop rate per interval of run start',
      query: RateQuery,
      returns: 'LoopRateSeries: intervalSeconds, points { bucketStartMs, runs, loopingRuns, rate }, thresholds',
    },
    ({ query, req }) => {
      const filter = toAnalyticsFilter(query, projectOf(req));
      return analytics.loopRate(filter, {
        ...loopOptionsOf(query),
        intervalSeconds: resolveInterval(query.interval, filter),
      });
    },
  );
  registry.route(
    router,
    {
      ...API_ROUTES['get /loops/runs'],
      tag: 'loops',
      summary: 'Loop kinds and waste of each looping run (pass runIds for a page of the runs list)',
      query: RunsQuery,
      returns: '{ runs: RunLoopFlag[] } { runId, kinds, detections, wastedNs, wastedCostUsd }',
    },
    async ({ query, req }) => {
      const filter = toAnalyticsFilter(query, projectOf(req));
      return {
        runs: await analytics.runLoopFlags(
          query.runIds === undefined ? filter : { ...filter, runIds: query.runIds },
          loopOptionsOf(query),
        ),
      };
    },
  );
  return router;
}
