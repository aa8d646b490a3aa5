import { Router, type Request } from 'express';
import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';
import type { Analytics } from '@telltale/analytics';
import { API_ROUTES } from '@telltale/api-contract';
import type { ApiRegistry } from './ApiRegistry.js';

/** `/runs` and `/traces`: reads scoped to the caller's project; run costs priced with the project's table. */
export function runsRouter(registry: ApiRegistry, analytics: Analytics, projectOf: (req: Request) => string): Router {
  const router = Router();

  registry.route(
    router,
    {
      ...API_ROUTES['get /runs'],
      tag: 'runs',
      summary: 'Runs, newest first; by outcome, service, agent, session, or runs containing a step / tool / model',
      returns: '{ runs, total, limit, offset }: outcome, duration, steps, cost and session id per run',
    },
    async ({ query: q, req }) => {
      const { runs, total } = await analytics.listRuns(
        {
          projectId: projectOf(req),
          ...(q.from === undefined ? {} : { fromUnixNano: q.from }),
          ...(q.to === undefined ? {} : { toUnixNano: q.to }),
          ...(q.outcome === undefined ? {} : { outcome: q.outcome }),
          ...(q.service === undefined ? {} : { service: q.service }),
          ...(q.session === undefined ? {} : { session: q.session }),
          ...(q.agent === undefined ? {} : { agent: q.agent }),
          ...(q.step === undefined ? {} : { stepName: q.step }),
          ...(q.tool === undefined ? {} : { tool: q.tool }),
          ...(q.model === undefined ? {} : { model: q.model }),
        },
        { limit: q.limit, offset: q.offset },
      );
      return { runs, total, limit: q.limit, offset: q.offset };
    },
  );

  registry.route(
    router,
    {
      ...API_ROUTES['get /sessions'],
      tag: 'runs',
      summary: 'Sessions / conversations: runs grouped by session id, most recently active first',
      returns:
        '{ sessions, total, limit, offset }: runs per outcome, first start, last end, cost, tokens, services and agents per session',
    },
    async ({ query: q, req }) => {
      const { sessions, total } = await analytics.listSessions(
        {
          projectId: projectOf(req),
          ...(q.from === undefined ? {} : { fromUnixNano: q.from }),
          ...(q.to === undefined ? {} : { toUnixNano: q.to }),
          ...(q.service === undefined ? {} : { service: q.service }),
        },
        { limit: q.limit, offset: q.offset },
      );
      return { sessions, total, limit: q.limit, offset: q.offset };
    },
  );

  registry.route(
    router,
    {
      ...API_ROUTES['get /runs/:runId'],
      tag: 'runs',
      summary: "One run's summary and its spans",
      returns: '{ run, services, spans }: services are every service that recorded spans of the run',
    },
    async ({ params, req }) => {
      const found = await analytics.getRun(projectOf(req), params.runId);
      if (found === undefined)
        throw new TelltaleError({ code: TelltaleErrorCode.NOT_FOUND, message: `no run ${params.runId}` });
      return { ...found, services: [...new Set(found.spans.map((s) => s.serviceName))].sort() };
    },
  );

  registry.route(
    router,
    {
      ...API_ROUTES['get /traces/:traceId'],
      tag: 'runs',
      summary: 'The spans of one trace',
      returns: '{ traceId, spans }',
    },
    async ({ params, req }) => {
      const spans = await analytics.getTraceSpans(projectOf(req), params.traceId);
      if (spans.length === 0)
        throw new TelltaleError({ code: TelltaleErrorCode.NOT_FOUND, message: `no trace ${params.traceId}` });
      return { traceId: params.traceId.toLowerCase(), spans };
    },
  );

  return router;
}
