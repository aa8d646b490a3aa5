import { Router, type Request } from 'express';
import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';
import type { Store } from '@telltale/store';
import { z } from 'zod';
import { parseOrThrow } from './errors.js';
import { TimeParam } from './timeParam.js';

const ListRunsQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(1000).default(50),
    offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
    outcome: z.enum(['success', 'failure', 'incomplete']).optional(),
    service: z.string().min(1).max(512).optional(),
    from: TimeParam.optional(),
    to: TimeParam.optional(),
  })
  .strict();

const RunIdParam = z.string().min(1).max(256);
const TraceIdParam = z.string().regex(/^[0-9a-fA-F]{32}$/, 'a trace id is 32 hex digits');

/** `/runs` and `/traces`: reads scoped to the caller's project. */
export function runsRouter(store: Store, projectOf: (req: Request) => string): Router {
  const router = Router();

  router.get('/runs', async (req, res) => {
    const q = parseOrThrow(ListRunsQuery, req.query, 'query parameter');
    const { runs, total } = await store.listRuns(
      {
        projectId: projectOf(req),
        ...(q.from === undefined ? {} : { fromUnixNano: q.from }),
        ...(q.to === undefined ? {} : { toUnixNano: q.to }),
        ...(q.outcome === undefined ? {} : { outcome: q.outcome }),
        ...(q.service === undefined ? {} : { service: q.service }),
      },
      { limit: q.limit, offset: q.offset },
    );
    res.json({ runs, total, limit: q.limit, offset: q.offset });
  });

  router.get('/runs/:runId', async (req, res) => {
    const runId = parseOrThrow(RunIdParam, req.params.runId, 'run id');
    const found = await store.getRun(projectOf(req), runId);
    if (found === undefined) throw new TelltaleError({ code: TelltaleErrorCode.NOT_FOUND, message: `no run ${runId}` });
    res.json(found);
  });

  router.get('/traces/:traceId', async (req, res) => {
    const traceId = parseOrThrow(TraceIdParam, req.params.traceId, 'trace id');
    const spans = await store.getTraceSpans(projectOf(req), traceId);
    if (spans.length === 0) throw new TelltaleError({ code: TelltaleErrorCode.NOT_FOUND, message: `no trace ${traceId}` });
    res.json({ traceId: traceId.toLowerCase(), spans });
  });

  return router;
}
