import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chooseAnswer } from './chooseAnswer.js';
import { loadScenarios } from './recording.js';
import type { Scenario } from './recording.js';

/** One request the server answered. */
export interface ModelRequest {
  path: string;
  body: Record<string, unknown>;
  scenario?: string;
  turn?: number;
}

export interface ModelServerOptions {
  /** Port to listen on (default 0: any free port). */
  port?: number;
  host?: string;
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

/**
 * A local HTTP server answering OpenAI-compatible (`/v1/chat/completions`,
 * `/v1/responses`) and Anthropic-compatible (`/v1/messages`) requests from
 * recorded responses: JSON, or server-sent events when the body asks
 * `stream: true` (one write per event, so clients see chunks arrive).
 * Recorded conversations (`recordings/scenarios/`) answer multi-turn tool
 * loops. For tests and examples only: it never calls a real provider.
 */
export class ModelServer {
  readonly requests: ModelRequest[] = [];

  private constructor(
    private readonly server: Server,
    private readonly scenarios: readonly Scenario[],
    /** `http://host:port`; OpenAI clients take `${origin}/v1`, Anthropic clients the origin. */
    readonly origin: string,
  ) {}

  static async start(options: ModelServerOptions = {}): Promise<ModelServer> {
    const holder: { self?: ModelServer } = {};
    const scenarios = loadScenarios();
    const server = createServer((req, res) => void holder.self?.handle(req, res));
    const host = options.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, host, resolve);
    });
    const { port } = server.address() as AddressInfo;
    holder.self = new ModelServer(server, scenarios, `http://${host}:${port}`);
    return holder.self;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const path = (req.url ?? '').split('?')[0] ?? '';
    if (req.method !== 'POST') return sendJson(res, 405, { error: { message: 'only POST is answered' } });
    let body: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      body = parsed as Record<string, unknown>;
    } catch {
      return sendJson(res, 400, { error: { message: 'the request body is not a JSON object' } });
    }
    const answer = chooseAnswer(path, body, this.scenarios);
    if ('notFound' in answer) return sendJson(res, 404, { error: { message: answer.notFound } });
    this.requests.push({ path, body, scenario: answer.scenario, turn: answer.turn });
    const rec = answer.recording;
    if (rec.events === undefined) return sendJson(res, rec.status, rec.body, rec.headers);
    res.writeHead(rec.status, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...rec.headers });
    for (const e of rec.events) {
      if (res.destroyed) return;
      const data = typeof e.data === 'string' ? e.data : JSON.stringify(e.data);
      res.write(`${e.event !== undefined ? `event: ${e.event}\n` : ''}data: ${data}\n\n`);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    res.end();
  }
}
