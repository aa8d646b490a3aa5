import { Router, type Request } from 'express';
import type { Analytics } from '@telltale/analytics';
import { z } from 'zod';
import type { ApiRegistry } from './ApiRegistry.js';
import { FILTER_QUERY, IntervalParam, resolveInterval, toAnalyticsFilter } from './analyticsParams.js';
import { LOOP_THRESHOLD_QUERY, RunIdsParam, loopOptionsOf } from './loopParams.js';

const FailuresQuery = z.object({ ...FILTER_QUERY, ...LOOP_THRESHOLD_QUERY }).strict();
const SeriesQuery = z.object({ ...FILTER_QUERY, ...LOOP_THRESHOLD_QUERY, interval: IntervalParam }).strict();
const RunsQuery = z.object({ ...FILTER_QUERY, ...LOOP_THRESHOLD_QUERY, runIds: RunIdsParam.optional() }).strict();

/** `/failures*`: failed runs by primary cause (loop thresholds decide the `loop` cause). */
export function failuresRouter(registry: ApiRegistry, analytics: Analytics, projectOf: (req: Request) => string): Router {
  const router = Router();
  registry.route(
    router,
    {
      method: 'get',
      path: '/failures',
      tag: 'failures',
      summary: 'Failed runs by primary cause (loop, partial_execution, tool_failure, validation_exhausted, llm_error, timeout, unknown) with shares',
      query: FailuresQuery,
      response: 'FailureBreakdown: failedRuns, causes { cause, runs, share } in priority order',
    },
    ({ query, req }) => analytics.failures(toAnalyticsFilter(query, projectOf(req)), loopOptionsOf(query)),
  );
  registry.route(
    router,
    {
      method: 'get',
      path: '/failures/series',
      tag: 'failures',
      summary: 'Failed runs per cause per interval of run start',
      query: SeriesQuery,
      response: 'FailureSeries: intervalSeconds, points { bucketStartMs, failedRuns, counts }',
    },
    ({ query, req }) => {
      const filter = toAnalyticsFilter(query, projectOf(req));
      return analytics.failureSeries(filter, { ...loopOptionsOf(query), intervalSeconds: resolveInterval(query.interval, filter) });
    },
  );
  registry.route(
    router,
    {
      method: 'get',
      path: '/failures/runs',
      tag: 'failures',
      summary: 'The primary cause of each failed run (pass runIds for a page of the runs list)',
      query: RunsQuery,
      response: '{ runs: RunCause[] } { runId, cause }',
    },
    async ({ query, req }) => {
      const filter = toAnalyticsFilter(query, projectOf(req));
      return { runs: await analytics.runCauses(query.runIds === undefined ? filter : { ...filter, runIds: query.runIds }, loopOptionsOf(query)) };
    },
  );
  return router;
}
