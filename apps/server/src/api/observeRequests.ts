import type { RequestHandler } from 'express';
import { apiRouteOf } from './apiRouteOf.js';

/** One finished API request: its route pattern (`unmatched` when it names no route), never the raw URL. */
export type ApiRequestObserver = (method: string, route: string, status: number, seconds: number) => void;

/** Middleware timing every request under `mount` until its response is finished. */
export function observeRequests(mount: string, observe: ApiRequestObserver): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    res.once('finish', () => {
      const pattern: unknown = (req.route as { path?: unknown } | undefined)?.path;
      // refused before routing (401, 403): the route its method and path name
      const route =
        typeof pattern === 'string' ? `${mount}${pattern}` : (apiRouteOf(req.method, req.originalUrl) ?? 'unmatched');
      observe(req.method, route, res.statusCode, (performance.now() - started) / 1000);
    });
    next();
  };
}
