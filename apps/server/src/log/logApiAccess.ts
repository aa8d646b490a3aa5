import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { API_BASE, apiRouteOf } from '../api/apiRouteOf.js';

/** What express leaves on a request it routed: the matched route's pattern, relative to the router mounted at `/api/v1`. */
interface RoutedRequest extends IncomingMessage {
  route?: { path?: unknown };
}

/**
 * One info line per API request once it is answered (or the client gave up):
 * method, route pattern (`/api/v1/runs/:runId`, not the path with its ids,
 * also for a request refused before routing; `path` instead when it names
 * no route), status, duration in ms, and the caller's project (undefined
 * when the request was refused before its key was accepted).
 */
export function logApiAccess(
  logger: Logger,
  req: IncomingMessage,
  res: ServerResponse,
  projectOf: (req: IncomingMessage) => string | undefined,
): void {
  const startedAt = performance.now();
  res.once('close', () => {
    const pattern = (req as RoutedRequest).route?.path;
    const route = typeof pattern === 'string' ? `${API_BASE}${pattern}` : apiRouteOf(req.method, req.url);
    logger.info(
      {
        method: req.method,
        // a path that names no route (404): the path, without its query
        ...(route !== undefined ? { route } : { path: req.url?.split('?', 1)[0] }),
        status: res.statusCode,
        durationMs: Math.round((performance.now() - startedAt) * 10) / 10,
        project: projectOf(req),
        ...(res.writableFinished ? {} : { aborted: true }),
      },
      'api request',
    );
  });
}
