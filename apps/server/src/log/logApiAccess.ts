import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';

/** What express leaves on a request it routed: the matched route's pattern, relative to the router mounted at `/api/v1`. */
interface RoutedRequest extends IncomingMessage {
  route?: { path?: unknown };
}

/** Where the API routes are mounted (createApiApp). */
const API_BASE = '/api/v1';

/**
 * One info line per API request once it is answered (or the client gave up):
 * method, route pattern (`/api/v1/runs/:runId`, not the path with its ids;
 * `path` instead when no route was reached), status, duration in ms, and the caller's project (undefined when the
 * request was refused before its key was accepted).
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
    logger.info(
      {
        method: req.method,
        // no route matched (404), or the request was refused before routing (401, 403): the path, without its query
        ...(typeof pattern === 'string' ? { route: `${API_BASE}${pattern}` } : { path: req.url?.split('?', 1)[0] }),
        status: res.statusCode,
        durationMs: Math.round((performance.now() - startedAt) * 10) / 10,
        project: projectOf(req),
        ...(res.writableFinished ? {} : { aborted: true }),
      },
      'api request',
    );
  });
}
