import {
  createServer,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChdbEngine } from './ChdbEngine.js';
import { CONTROL_PATH, FaultModeSchema, type ActiveFaultMode } from './FaultMode.js';
import { QueryHandler, type QueryLimits } from './QueryHandler.js';
import { readBody } from './readBody.js';
import { readRequestParams } from './readRequestParams.js';
import { sendException, sendResult } from './sendResponse.js';

export interface ChServerOptions extends QueryLimits {
  /** Where INSERT bodies are staged (one file per insert, removed after it). */
  tmpDir: string;
  log: (line: string) => void;
}

/**
 * The HTTP side: ClickHouse's `/ping` and `/` query interface over one
 * chDB engine, plus `/__control` for the tests' fault modes. Every request
 * ends in an answer or a destroyed socket; no request can take the process
 * down.
 */
export class ChServer {
  private mode: ActiveFaultMode = { mode: 'ok' };
  private requests = 0;
  private readonly inflight = new Set<Promise<void>>();
  private readonly server: Server;
  private readonly queries: QueryHandler;
  private readonly headers: OutgoingHttpHeaders;

  constructor(
    private readonly engine: ChdbEngine,
    private readonly opts: ChServerOptions,
  ) {
    this.queries = new QueryHandler(engine, opts.tmpDir, opts);
    this.headers = { 'X-ClickHouse-Server-Display-Name': 'chserver', 'X-ClickHouse-Timezone': engine.timezone };
    // ClickHouse accepts URLs up to 1 MiB (http_max_uri_size); query parameters travel in the URL.
    this.server = createServer({ maxHeaderSize: 1 << 20, keepAliveTimeout: 10_000 }, (req, res) => {
      const done = this.handle(req, res).catch((err: unknown) => {
        this.opts.log(`request failed: ${String(err)}`);
        res.destroy();
      });
      this.inflight.add(done);
      void done.finally(() => this.inflight.delete(done));
    });
    this.server.on('clientError', (_err, socket) => socket.destroy());
  }

  listen(port: number, host: string): Promise<AddressInfo> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        resolve(this.server.address() as AddressInfo);
      });
    });
  }

  /** Stops accepting, lets running requests answer, closes idle keep-alive sockets. */
  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeIdleConnections();
    await Promise.allSettled([...this.inflight]);
    this.server.closeAllConnections();
    await closed;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://chserver');
    if (url.pathname === CONTROL_PATH) return this.control(req, res);
    this.requests++;
    if (this.mode.mode === 'refuse') {
      if (this.mode.how === 'reset') req.socket.destroy();
      else this.sendText(res, 503, 'Service Unavailable: chserver fault mode "refuse"\n', { Connection: 'close' });
      return;
    }
    if (url.pathname === '/ping' || url.pathname === '/replicas_status') {
      await this.slowdown();
      this.sendText(res, 200, 'Ok.\n');
      return;
    }
    if (url.pathname !== '/' || (req.method !== 'GET' && req.method !== 'POST')) {
      await this.slowdown();
      this.sendText(res, 404, `There is no handle ${url.pathname}\n\nUse / or /ping for health checks.\n`);
      return;
    }
    let queryId: string | undefined;
    try {
      const rp = readRequestParams(url.searchParams, this.engine.catalog);
      queryId = rp.queryId;
      const outcome = await this.queries.run(req, rp);
      await this.slowdown();
      await sendResult(req, res, { ...outcome, queryId, compress: rp.compress, serverHeaders: this.headers });
    } catch (err) {
      const e = this.engine.catalog.from(err);
      await this.slowdown();
      sendException(res, e, `${this.engine.version} (chserver over chDB)`, queryId, this.headers);
    }
  }

  private async control(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method === 'POST') {
      let input: unknown;
      try {
        input = JSON.parse((await readBody(req, { limit: 64 * 1024, catalog: this.engine.catalog })).toString('utf8'));
      } catch (err) {
        this.sendJson(res, 400, { error: `the body is not JSON: ${String(err)}` });
        return;
      }
      const parsed = FaultModeSchema.safeParse(input);
      if (!parsed.success) {
        this.sendJson(res, 400, { error: parsed.error.message });
        return;
      }
      this.mode = parsed.data;
      this.opts.log(`fault mode: ${JSON.stringify(this.mode)}`);
    } else if (req.method !== 'GET') {
      this.sendJson(res, 405, { error: 'GET or POST' });
      return;
    }
    this.sendJson(res, 200, { ...this.mode, requests: this.requests, queued: this.engine.queued });
  }

  private async slowdown(): Promise<void> {
    if (this.mode.mode === 'slow' && this.mode.delayMs > 0) await sleep(this.mode.delayMs);
  }

  private sendText(res: ServerResponse, status: number, text: string, extra: OutgoingHttpHeaders = {}): void {
    if (res.destroyed) return;
    res.writeHead(status, {
      ...this.headers,
      ...extra,
      'Content-Type': 'text/plain; charset=UTF-8',
      'Content-Length': Buffer.byteLength(text),
    });
    res.end(text);
  }

  private sendJson(res: ServerResponse, status: number, body: unknown): void {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
    res.end(text);
  }
}
