import { Router, type Request } from 'express';
import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';
import type { Analytics } from '@telltale/analytics';
import type { Store } from '@telltale/store';
import { z } from 'zod';
import type { ApiRegistry } from './ApiRegistry.js';
import { TimeParam } from './timeParam.js';

const ListRunsQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(1000).default(50),
    offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
    outcome: z.enum(['success', 'failure', 'incomplete']).optional(),
    service: z.string().min(1).max(512).optional(),
    agent: z.string().min(1).max(512).optional().describe("only runs whose root is this agent (the run root's name)"),
    step: z.string().min(1).max(512).optional().describe('only runs containing a step with this step name'),
    tool: z.string().min(1).max(512).optional().describe('only runs containing a call of this tool'),
    model: z.string().min(1).max(512).optional().describe('only runs containing an LLM call of this model'),
    /** Runs of one session / conversation (gen_ai.conversation.id, session.id…). */
    session: z.string().min(1).max(512).optional(),
    from: TimeParam.optional(),
    to: TimeParam.optional(),
  })
  .strict();

const ListSessionsQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(1000).default(50),
    offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
    service: z.string().min(1).max(512).optional(),
    from: TimeParam.optional(),
    to: TimeParam.optional(),
  })
  .strict();

const NoQuery = z.object({}).strict();
const RunIdParams = z.object({ runId: z.string().min(1).max(256) });
const TraceIdParams = z.object({ traceId: z.string().regex(/^[0-9a-fA-F]{32}$/, 'a trace id is 32 hex digits') });

/** `/runs` and `/traces`: reads scoped to the caller's project; run costs priced with the project's table. */
export function runsRouter(registry: ApiRegistry, store: Store, analytics: Analytics, projectOf: (req: Request) => string): Router {
  const router = Router();

  registry.route(
    router,
    {
      method: 'get',
      path: '/runs',
      tag: 'runs',
      summary: 'Runs, newest first; by outcome, service, agent, session, or runs containing a step / tool / model',
      query: ListRunsQuery,
      response: '{ runs, total, limit, offset }: outcome, duration, steps, cost and session id per run',
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
      method: 'get',
      path: '/sessions',
      tag: 'runs',
      summary: 'Sessions / conversations: runs grouped by session id, most recently active first',
      query: ListSessionsQuery,
      response: '{ sessions, total, limit, offset }: runs per outcome, first start, last end, cost, tokens, services and agents per session',
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
    { method: 'get', path: '/runs/:runId', tag: 'runs', summary: "One run's summary and its spans", query: NoQuery, params: RunIdParams, response: '{ run, spans }' },
    async ({ params, req }) => {
      const found = await analytics.getRun(projectOf(req), params.runId);
      if (found === undefined) throw new TelltaleError({ code: TelltaleErrorCode.NOT_FOUND, message: `no run ${params.runId}` });
      return found;
    },
  );

  registry.route(
    router,
    { method: 'get', path: '/traces/:traceId', tag: 'runs', summary: 'The spans of one trace', query: NoQuery, params: TraceIdParams, response: '{ traceId, spans }' },
    async ({ params, req }) => {
      const spans = await store.getTraceSpans(projectOf(req), params.traceId);
      if (spans.length === 0) throw new TelltaleError({ code: TelltaleErrorCode.NOT_FOUND, message: `no trace ${params.traceId}` });
      return { traceId: params.traceId.toLowerCase(), spans };
    },
  );

  return router;
}
