import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express, { Router, type Express, type Request } from 'express';
import type { AlertService } from '@telltale/alerts';
import type { Analytics } from '@telltale/analytics';
import { OPEN_MODE_PROJECT, TelltaleError, TelltaleErrorCode } from '@telltale/semconv';
import type { Store } from '@telltale/store';
import { API_ROUTES } from '@telltale/api-contract';
import { adminRouter, type AdminOptions } from './adminRouter.js';
import { contentRouter } from './contentRouter.js';
import { alertsRouter } from './alertsRouter.js';
import { ApiRegistry } from './ApiRegistry.js';
import { API_BASE } from './apiRouteOf.js';
import { observeRequests, type ApiRequestObserver } from './observeRequests.js';
import { errorMiddleware, sendError } from './errors.js';
import { openApiDocument } from './openApiDocument.js';
import { costRouter } from './costRouter.js';
import { failuresRouter } from './failuresRouter.js';
import { loopsRouter } from './loopsRouter.js';
import { latencyRouter } from './latencyRouter.js';
import { pricesRouter } from './pricesRouter.js';
import { reliabilityRouter } from './reliabilityRouter.js';
import { runsRouter } from './runsRouter.js';

export interface ApiAppOptions {
  store: Store;
  /** Created once per process; every analytics route asks it. */
  analytics: Analytics;
  /** Alert rules, destinations and the delivery log (absent: no `/alerts` routes). */
  alerts?: AlertService;
  /** Built dashboard to serve at `/`, if present. */
  webDir?: string;
  onInternalError: (err: unknown) => void;
  /** The project a request reads. Open mode: everything is project `default`. */
  projectOf?: (req: Request) => string;
  /**
   * Authenticates every `/api/v1` request before its route runs: resolves to
   * the caller's project (which then replaces `projectOf`) or throws a
   * TelltaleError (401, 403, 503).
   */
  authenticate?: (req: Request) => Promise<string>;
  /**
   * Runs before every route that reads spans or what is derived from them
   * (runs, analytics, prices), with the caller's project: the server waits
   * there, bounded, for the project's acknowledged spans to reach storage.
   * Health, the OpenAPI document and the alert routes do not wait.
   */
  beforeRead?: (projectId: string) => Promise<unknown>;
  /** Who may call `/admin/…` (projects and keys). Default: anyone without `authenticate` (open mode), no one with it. */
  admin?: AdminOptions;
  /** Whether the caller's project lets its read keys read span content (default: yes, as in open mode). */
  contentReadable?: (projectId: string) => boolean;
  /** Hears every finished `/api/v1` request with its route pattern (metrics). */
  onApiRequest?: ApiRequestObserver;
}

export const API_VERSION = '0.1.0';

/** Every route under `/api/v1`, registered with its schemas in `registry` (the OpenAPI source). */
export function createApiRouter(opts: ApiAppOptions): { router: Router; registry: ApiRegistry } {
  const registry = new ApiRegistry();
  const router = Router();
  // Open mode: one local user, one project. With keys, the project is the key's, never a parameter's.
  let projectOf = opts.projectOf ?? ((): string => OPEN_MODE_PROJECT);
  const authenticate = opts.authenticate;
  // admin routes take the admin key, never a project's key: they come before the project authentication
  router.use(
    adminRouter(
      registry,
      opts.store,
      opts.admin ?? { authorize: authenticate === undefined ? () => undefined : adminOff },
      authenticate === undefined ? 'none' : 'keys',
    ),
  );
  if (authenticate !== undefined) {
    const projects = new WeakMap<Request, string>();
    router.use(async (req, _res, next) => {
      projects.set(req, await authenticate(req));
      next();
    });
    projectOf = (req) => {
      const project = projects.get(req);
      if (project === undefined)
        throw new TelltaleError({ code: TelltaleErrorCode.INTERNAL, message: 'request was not authenticated' });
      return project;
    };
  }

  registry.route(
    router,
    {
      ...API_ROUTES['get /health'],
      tag: 'meta',
      summary: 'Storage reachability',
      returns: '{ status: ok | degraded, storage }; 503 when storage is unreachable',
    },
    async ({ res }) => {
      const storage = await opts.store.ping().catch(() => false);
      res.status(storage ? 200 : 503);
      return { status: storage ? 'ok' : 'degraded', storage };
    },
  );
  registry.route(
    router,
    {
      ...API_ROUTES['get /openapi.json'],
      tag: 'meta',
      summary: 'This OpenAPI 3.1 document',
      returns: 'the OpenAPI document',
    },
    () => openApiDocument(registry.routes, { title: 'Telltale API', version: API_VERSION }),
  );
  // alert rules, destinations and the delivery log are not read from spans
  if (opts.alerts !== undefined) router.use(alertsRouter(registry, opts.alerts, projectOf));
  const beforeRead = opts.beforeRead;
  if (beforeRead !== undefined) {
    router.use(async (req, _res, next) => {
      await beforeRead(projectOf(req));
      next();
    });
  }
  router.use(runsRouter(registry, opts.analytics, projectOf));
  router.use(contentRouter(registry, opts.store, projectOf, opts.contentReadable ?? (() => true)));
  router.use(reliabilityRouter(registry, opts.analytics, projectOf));
  router.use(latencyRouter(registry, opts.analytics, projectOf));
  router.use(loopsRouter(registry, opts.analytics, projectOf));
  router.use(failuresRouter(registry, opts.analytics, projectOf));
  router.use(costRouter(registry, opts.analytics, projectOf));
  router.use(pricesRouter(registry, opts.analytics, projectOf));
  router.use((req, res) =>
    sendError(
      res,
      new TelltaleError({ code: TelltaleErrorCode.NOT_FOUND, message: `no API route ${req.method} ${req.path}` }),
    ),
  );
  return { router, registry };
}

function adminOff(): never {
  throw new TelltaleError({ code: TelltaleErrorCode.FORBIDDEN, message: 'the admin API is off on this server' });
}

/** The JSON API under `/api/v1` and the dashboard as static files with SPA fallback. */
export function createApiApp(opts: ApiAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  if (opts.onApiRequest !== undefined) app.use(API_BASE, observeRequests(API_BASE, opts.onApiRequest));
  app.use(API_BASE, createApiRouter(opts).router);

  const webDir = opts.webDir;
  if (webDir !== undefined && existsSync(join(webDir, 'index.html'))) {
    app.use(express.static(webDir, { index: false, maxAge: '1h', setHeaders: noCacheHtml }));
    app.get(/^\/(?!api\/|v1\/).*/, (_req, res) => {
      res.setHeader('cache-control', 'no-cache');
      res.sendFile(join(webDir, 'index.html'));
    });
  }
  app.use((req, res) =>
    sendError(
      res,
      new TelltaleError({ code: TelltaleErrorCode.NOT_FOUND, message: `not found: ${req.method} ${req.path}` }),
    ),
  );
  app.use(errorMiddleware(opts.onInternalError));
  return app;
}

function noCacheHtml(res: express.Response, path: string): void {
  if (path.endsWith('.html')) res.setHeader('cache-control', 'no-cache');
}
