import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A recorded provider answer: a JSON body, or server-sent events. */
export interface LlmFixture {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  events?: { event?: string; data: unknown }[];
}

const FIXTURE_DIR = new URL('../../../packages/sdk/test/fixtures/llm/', import.meta.url);

/** Reads `test/fixtures/llm/<name>.json`. */
export function llmFixture(name: string): LlmFixture {
  return JSON.parse(readFileSync(new URL(`${name}.json`, FIXTURE_DIR), 'utf8')) as LlmFixture;
}

const ROUTES: Readonly<Record<string, { fixture: string; provider: string }>> = {
  '/v1/chat/completions': { fixture: 'openai-chat', provider: 'openai' },
  '/v1/responses': { fixture: 'openai-responses', provider: 'openai' },
  '/v1/messages': { fixture: 'anthropic-messages', provider: 'anthropic' },
};

/** A non-streamed chat request offering tools, before any tool result: answered with a tool call. */
function wantsToolCall(path: string, body: Record<string, unknown>): boolean {
  if (path !== '/v1/chat/completions' || body.stream === true || !Array.isArray(body.tools)) return false;
  const messages = Array.isArray(body.messages) ? (body.messages as { role?: unknown }[]) : [];
  return !messages.some((m) => m.role === 'tool');
}

/** The model name that makes the server answer 429 with the provider's rate-limit body. */
export const RATE_LIMITED_MODEL = 'rate-limited';

/**
 * (The SDK's own tests use its twin in packages/sdk/src/testing; e2e tests see public entry points only.)
 * A loopback HTTP server answering OpenAI-compatible (`/v1/chat/completions`,
 * `/v1/responses`) and Anthropic-compatible (`/v1/messages`) requests from
 * the recorded fixtures: JSON, or an SSE stream when the body asks
 * `stream: true` (one write per event, so clients see chunks arrive).
 */
export class LlmFixtureServer {
  readonly requests: { path: string; body: Record<string, unknown> }[] = [];

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<LlmFixtureServer> {
    const holder: { self?: LlmFixtureServer } = {};
    const server = createServer((req, res) => void holder.self?.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    holder.self = new LlmFixtureServer(server, `http://127.0.0.1:${port}`);
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
    const route = ROUTES[path];
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
    } catch {
      return void res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"body is not JSON"}');
    }
    if (req.method !== 'POST' || route === undefined)
      return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no such route"}');
    this.requests.push({ path, body });
    const name =
      body.model === RATE_LIMITED_MODEL
        ? `${route.provider}-429`
        : wantsToolCall(path, body)
          ? 'openai-chat-tool'
          : body.stream === true
            ? `${route.fixture}.sse`
            : route.fixture;
    const fx = llmFixture(name);
    if (fx.events === undefined) {
      res.writeHead(fx.status, { 'content-type': 'application/json', ...fx.headers }).end(JSON.stringify(fx.body));
      return;
    }
    res.writeHead(fx.status, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...fx.headers });
    for (const e of fx.events) {
      if (res.destroyed) return;
      const data = typeof e.data === 'string' ? e.data : JSON.stringify(e.data);
      res.write(`${e.event !== undefined ? `event: ${e.event}\n` : ''}data: ${data}\n\n`);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    res.end();
  }
}
