import { Router, type Request } from 'express';
import type { Analytics } from '@telltale/analytics';
import { LOOP_KIND_LABELS } from '@telltale/semconv';
import { LOOP_KINDS, LOOP_ORDERS, type LoopOrder } from '@telltale/store';
import { z } from 'zod';
import type { ApiRegistry } from './ApiRegistry.js';
import { FILTER_QUERY, IntervalParam, resolveInterval, toAnalyticsFilter } from './analyticsParams.js';
import { LOOP_THRESHOLD_QUERY, RunIdsParam, loopOptionsOf } from './loopParams.js';

const ORDERS = Object.keys(LOOP_ORDERS) as [LoopOrder, ...LoopOrder[]];

const LoopsQuery = z
  .object({
    ...FILTER_QUERY,
    ...LOOP_THRESHOLD_QUERY,
    kind: z.enum(LOOP_KINDS, { error: `kind is one of ${LOOP_KINDS.join(', ')}` }).optional().describe('only detections of this kind'),
    orderBy: z.enum(ORDERS, { error: `orderBy is one of ${ORDERS.join(', ')}` }).default('recent').describe('page order'),
    limit: z.coerce.number().int().min(1).max(500).default(50),
    offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
    runIds: RunIdsParam.optional(),
  })
  .strict();

const RateQuery = z.object({ ...FILTER_QUERY, ...LOOP_THRESHOLD_QUERY, interval: IntervalParam }).strict();
const RunsQuery = z.object({ ...FILTER_QUERY, ...LOOP_THRESHOLD_QUERY, runIds: RunIdsParam.optional() }).strict();

/** `/loops*`: loop detections with evidence, the loop rate, per-run flags. */
export function loopsRouter(registry: ApiRegistry, analytics: Analytics, projectOf: (req: Request) => string): Router {
  const router = Router();
  registry.route(
    router,
    {
      method: 'get',
      path: '/loops',
      tag: 'loops',
      summary: `Loop detections (${LOOP_KINDS.map((k) => LOOP_KIND_LABELS[k].toLowerCase()).join(', ')}) with evidence, a page at a time, and totals per kind (runIds: of these runs, e.g. one run’s page)`,
      query: LoopsQuery,
      response: 'LoopsReport: detections { runId, agent, kind, variant, count, wastedNs, wastedCostUsd, evidence }, total, runs, byKind, overall, thresholds',
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
      method: 'get',
      path: '/loops/rate',
      tag: 'loops',
      summary: 'Runs, looping runs and the loop rate per interval of run start',
      query: RateQuery,
      response: 'LoopRateSeries: intervalSeconds, points { bucketStartMs, runs, loopingRuns, rate }, thresholds',
    },
    ({ query, req }) => {
      const filter = toAnalyticsFilter(query, projectOf(req));
      return analytics.loopRate(filter, { ...loopOptionsOf(query), intervalSeconds: resolveInterval(query.interval, filter) });
    },
  );
  registry.route(
    router,
    {
      method: 'get',
      path: '/loops/runs',
      tag: 'loops',
      summary: 'Loop kinds and waste of each looping run (pass runIds for a page of the runs list)',
      query: RunsQuery,
      response: '{ runs: RunLoopFlag[] } { runId, kinds, detections, wastedNs, wastedCostUsd }',
    },
    async ({ query, req }) => {
      const filter = toAnalyticsFilter(query, projectOf(req));
      return { runs: await analytics.runLoopFlags(query.runIds === undefined ? filter : { ...filter, runIds: query.runIds }, loopOptionsOf(query)) };
    },
  );
  return router;
}
