import type { RequestHandler } from 'express';

/** One finished API request: the express route pattern (`unmatched` when no route took it), never the raw URL. */
export type ApiRequestObserver = (method: string, route: string, status: number, seconds: number) => void;

/** Middleware timing every request under `mount` until its response is finished. */
export function observeRequests(mount: string, observe: ApiRequestObserver): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    res.once('finish', () => {
      const pattern: unknown = (req.route as { path?: unknown } | undefined)?.path;
      const route = typeof pattern === 'string' ? `${mount}${pattern}` : 'unmatched';
      observe(req.method, route, res.statusCode, (performance.now() - started) / 1000);
    });
    next();
  };
}
