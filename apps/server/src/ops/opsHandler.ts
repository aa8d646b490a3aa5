import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EventLoopLag } from './EventLoopLag.js';
import type { Readiness } from './Readiness.js';
import type { TelltaleMetrics } from '../metrics/TelltaleMetrics.js';

/** Who may read `/metrics` on a listener: anyone, a bearer of this token, or nobody (not served). */
export type MetricsAccess = 'open' | 'off' | { token: string };

export interface OpsHandlerOptions {
  readiness: Readiness;
  lag: EventLoopLag;
  metrics: TelltaleMetrics;
  metricsAccess: MetricsAccess;
  startedAtMs: number;
}

const PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * `/healthz`, `/readyz` and `/metrics`, answered ahead of the API (no API
 * key, no wait for the spool): returns false for any other path.
 */
export function createOpsHandler(
  opts: OpsHandlerOptions,
): (req: IncomingMessage, res: ServerResponse, path: string) => boolean {
  return (req, res, path) => {
    if (!PATHS.has(path)) return false;
    if (path === '/metrics' && opts.metricsAccess === 'off') {
      // not the dashboard's fallback page either: say where the metrics are
      req.resume();
      json(res, 404, {
        error: {
          code: 'NOT_FOUND',
          message: 'metrics are not served on this port: start with --metrics-token <token>, or scrape --metrics-port',
        },
      });
      return true;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('use GET');
      return true;
    }
    req.resume();
    if (path === '/healthz') {
      json(res, 200, {
        status: 'ok',
        uptimeSeconds: Math.round((Date.now() - opts.startedAtMs) / 1000),
        eventLoopLag: opts.lag.report(),
      });
    } else if (path === '/readyz') {
      void opts.readiness.check().then(
        (report) =>
          json(res, report.ready ? 200 : 503, {
            status: report.ready ? 'ready' : 'not_ready',
            reasons: report.reasons,
            checks: report.checks,
          }),
        (err: unknown) =>
          json(res, 503, { status: 'not_ready', reasons: [`readiness check failed: ${(err as Error).message}`] }),
      );
    } else {
      const access = opts.metricsAccess;
      if (typeof access === 'object' && !bearerMatches(req.headers.authorization, access.token)) {
        res
          .writeHead(401, { 'www-authenticate': 'Bearer', 'content-type': 'text/plain' })
          .end('metrics need the --metrics-token as a Bearer token\n');
        return true;
      }
      void opts.metrics.exposition().then(
        ({ contentType, body }) =>
          res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' }).end(body),
        (err: unknown) =>
          res
            .writeHead(500, { 'content-type': 'text/plain' })
            .end(`collecting metrics failed: ${(err as Error).message}\n`),
      );
    }
    return true;
  };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res
    .writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' })
    .end(JSON.stringify(body));
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? '');
  if (match === null) return false;
  const given = Buffer.from(match[1]!.trim());
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
