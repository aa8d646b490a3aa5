import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted chat completion: either tool calls or a final text answer, with its usage. */
export interface ScriptedCompletion {
  toolCalls?: ReadonlyArray<{ name: string; arguments: Record<string, unknown> }>;
  text?: string;
  usage: { prompt: number; completion: number; cached?: number; reasoning?: number };
}

/**
 * A local OpenAI-compatible HTTP server for offline tests: answers
 * `POST /v1/chat/completions` (non-streaming) with the next scripted
 * completion, in the shape the official `openai` client parses, and
 * remembers each request body. No network beyond loopback.
 */
export class FakeOpenAiServer {
  readonly requests: unknown[] = [];
  private next = 0;
  private constructor(
    private readonly server: Server,
    readonly baseUrl: string,
    private readonly script: readonly ScriptedCompletion[],
    readonly model: string,
  ) {}

  static async start(model: string, script: readonly ScriptedCompletion[]): Promise<FakeOpenAiServer> {
    const holder: { self?: FakeOpenAiServer } = {};
    const server = createServer((req, res) => {
      if (holder.self === undefined) return void res.writeHead(503).end();
      holder.self.handle(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    holder.self = new FakeOpenAiServer(server, `http://127.0.0.1:${port}/v1`, script, model);
    return holder.self;
  }

  /** Completions answered so far. */
  get calls(): number {
    return this.next;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: 'not found', type: 'invalid_request_error' } }));
        return;
      }
      this.requests.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown);
      const step = this.script[this.next % this.script.length]!;
      const n = this.next++;
      const toolCalls = step.toolCalls?.map((c, i) => ({
        id: `call_${n}_${i}`,
        type: 'function',
        function: { name: c.name, arguments: JSON.stringify(c.arguments) },
      }));
      const body = {
        id: `chatcmpl-${n}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: this.model,
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: step.text ?? null,
              ...(toolCalls === undefined ? {} : { tool_calls: toolCalls }),
            },
            finish_reason: toolCalls === undefined ? 'stop' : 'tool_calls',
            logprobs: null,
          },
        ],
        usage: {
          prompt_tokens: step.usage.prompt,
          completion_tokens: step.usage.completion,
          total_tokens: step.usage.prompt + step.usage.completion,
          prompt_tokens_details: { cached_tokens: step.usage.cached ?? 0, audio_tokens: 0 },
          completion_tokens_details: { reasoning_tokens: step.usage.reasoning ?? 0, audio_tokens: 0 },
        },
      };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  }

  /** Stops at once: keep-alive connections (the client's pool) are closed, not waited for. */
  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
  }
}
