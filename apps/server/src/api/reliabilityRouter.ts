import { Router, type Request } from 'express';
import type { Analytics } from '@telltale/analytics';
import { API_ROUTES } from '@telltale/api-contract';
import type { ApiRegistry } from './ApiRegistry.js';
import { toAnalyticsFilter } from './analyticsParams.js';

/** `/reliability/*`: observed vs predicted end-to-end success, the gap, what-if ranking, compounding curve. */
export function reliabilityRouter(
  registry: ApiRegistry,
  analytics: Analytics,
  projectOf: (req: Request) => string,
): Router {
  const router = Router();
  registry.route(
    router,
    {
      ...API_ROUTES['get /reliability/summary'],
      tag: 'reliability',
      summary:
        'Observed vs predicted end-to-end success, coordination gap, per-agent and per-step rates with what-if gains',
      returns:
        'ReliabilitySummary: runs, observed, predicted, gap (estimates with 95% intervals), decomposition, agents, steps (a/f/p/r, whatIfGain)',
    },
    ({ query, req }) =>
      analytics.reliability(toAnalyticsFilter(query, projectOf(req)), { whatIfTarget: query.whatIfTarget }),
  );
  registry.route(
    router,
    {
      ...API_ROUTES['get /reliability/curve'],
      tag: 'reliability',
      summary: 'Observed success by attempt groups per run, with the fitted p̄^n curve',
      returns: 'CompoundingCurve: perGroupSuccess and points { groups, runs, observed, fitted }',
    },
    ({ query, req }) => analytics.compoundingCurve(toAnalyticsFilter(query, projectOf(req))),
  );
  return router;
}
