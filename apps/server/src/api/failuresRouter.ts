import { Router, type Request } from 'express';
import type { Analytics } from '@telltale/analytics';
import { API_ROUTES } from '@telltale/api-contract';
import type { ApiRegistry } from './ApiRegistry.js';
import { resolveInterval, toAnalyticsFilter } from './analyticsParams.js';
import { LOOP_THRESHOLD_QUERY, loopOptionsOf } from './loopParams.js';

// The contract's queries plus the loop thresholds (which decide the `loop` cause).
const FailuresQuery = API_ROUTES['get /failures'].query.extend(LOOP_THRESHOLD_QUERY);
const SeriesQuery = API_ROUTES['get /failures/series'].query.extend(LOOP_THRESHOLD_QUERY);
const RunsQuery = API_ROUTES['get /failures/runs'].query.extend(LOOP_THRESHOLD_QUERY);

/** `/failures*`: failed runs by primary cause (loop thresholds decide the `loop` cause). */
export function failuresRouter(
  registry: ApiRegistry,
  analytics: Analytics,
  projectOf: (req: Request) => string,
): Router {
  const router = Router();
  registry.route(
    router,
    {
      ...API_ROUTES['get /failures'],
      tag: 'failures',
      summary:
        'Failed runs by primary cause (loop, partial_execution, tool_failure, validation_exhausted, llm_error, timeout, unknown) with shares',
      query: FailuresQuery,
      returns: 'FailureBreakdown: failedRuns, causes { cause, runs, share } in priority order',
    },
    ({ query, req }) => analytics.failures(toAnalyticsFilter(query, projectOf(req)), loopOptionsOf(query)),
  );
  registry.route(
    router,
    {
      ...API_ROUTES['get /failures/series'],
      tag: 'failures',
      summary: 'Failed runs per cause per interval of run start',
      query: SeriesQuery,
      returns: 'FailureSeries: intervalSeconds, points { bucketStartMs, failedRuns, counts }',
    },
    ({ query, req }) => {
      const filter = toAnalyticsFilter(query, projectOf(req));
      return analytics.failureSeries(filter, {
        ...loopOptionsOf(query),
        intervalSeconds: resolveInterval(query.interval, filter),
      });
    },
  );
  registry.route(
    router,
    {
      ...API_ROUTES['get /failures/runs'],
      tag: 'failures',
      summary: 'The primary cause of each failed run (pass runIds for a page of the runs list)',
      query: RunsQuery,
      returns: '{ runs: RunCause[] } { runId, cause }',
    },
    async ({ query, req }) => {
      const filter = toAnalyticsFilter(query, projectOf(req));
      return {
        runs: await analytics.runCauses(
          query.runIds === undefined ? filter : { ...filter, runIds: query.runIds },
          loopOptionsOf(query),
        ),
      };
    },
  );
  return router;
}
