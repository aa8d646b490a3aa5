import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express, { type Express } from 'express';
import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';
import type { Store } from '@telltale/store';
import { errorMiddleware, sendError } from './errors.js';
import { runsRouter } from './runsRouter.js';

export interface ApiAppOptions {
  store: Store;
  /** Built dashboard to serve at `/`, if present. */
  webDir?: string;
  onInternalError: (err: unknown) => void;
}

/** The JSON API under `/api/v1` and the dashboard as static files with SPA fallback. */
export function createApiApp(opts: ApiAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');

  const api = express.Router();
  api.get('/health', async (_req, res) => {
    const storage = await opts.store.ping().catch(() => false);
    res.status(storage ? 200 : 503).json({ status: storage ? 'ok' : 'degraded', storage });
  });
  // Open mode: one local user, one project. Keys and projects arrive with auth.
  api.use(runsRouter(opts.store, () => 'default'));
  api.use((req, res) => sendError(res, new TelltaleError({ code: TelltaleErrorCode.NOT_FOUND, message: `no API route ${req.method} ${req.path}` })));
  app.use('/api/v1', api);

  const webDir = opts.webDir;
  if (webDir !== undefined && existsSync(join(webDir, 'index.html'))) {
    app.use(express.static(webDir, { index: false, maxAge: '1h', setHeaders: noCacheHtml }));
    app.get(/^\/(?!api\/|v1\/).*/, (_req, res) => {
      res.setHeader('cache-control', 'no-cache');
      res.sendFile(join(webDir, 'index.html'));
    });
  }
  app.use((req, res) => sendError(res, new TelltaleError({ code: TelltaleErrorCode.NOT_FOUND, message: `not found: ${req.method} ${req.path}` })));
  app.use(errorMiddleware(opts.onInternalError));
  return app;
}

function noCacheHtml(res: express.Response, path: string): void {
  if (path.endsWith('.html')) res.setHeader('cache-control', 'no-cache');
}
