import { Router, type Request } from 'express';
import type { Analytics } from '@telltale/analytics';
import { z } from 'zod';
import type { ApiRegistry } from './ApiRegistry.js';
import { FILTER_QUERY, toAnalyticsFilter } from './analyticsParams.js';

const SummaryQuery = z
  .object({
    ...FILTER_QUERY,
    whatIfTarget: z.coerce.number().gt(0).lte(1).default(0.99).describe('the p(s) each step is raised to in the what-if ranking'),
  })
  .strict();

const CurveQuery = z.object(FILTER_QUERY).strict();

/** `/reliability/*`: observed vs predicted end-to-end success, the gap, what-if ranking, compounding curve. */
export function reliabilityRouter(registry: ApiRegistry, analytics: Analytics, projectOf: (req: Request) => string): Router {
  const router = Router();
  registry.route(
    router,
    {
      method: 'get',
      path: '/reliability/summary',
      tag: 'reliability',
      summary: 'Observed vs predicted end-to-end success, coordination gap, per-agent and per-step rates with what-if gains',
      query: SummaryQuery,
      response: 'ReliabilitySummary: runs, observed, predicted, gap (estimates with 95% intervals), decomposition, agents, steps (a/f/p/r, whatIfGain)',
    },
    ({ query, req }) => analytics.reliability(toAnalyticsFilter(query, projectOf(req)), { whatIfTarget: query.whatIfTarget }),
  );
  registry.route(
    router,
    {
      method: 'get',
      path: '/reliability/curve',
      tag: 'reliability',
      summary: 'Observed success by attempt groups per run, with the fitted p̄^n curve',
      query: CurveQuery,
      response: 'CompoundingCurve: perGroupSuccess and points { groups, runs, observed, fitted }',
    },
    ({ query, req }) => analytics.compoundingCurve(toAnalyticsFilter(query, projectOf(req))),
  );
  return router;
}
