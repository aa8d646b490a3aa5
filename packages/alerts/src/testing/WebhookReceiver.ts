import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  atMs: number;
}

/**
 * A real HTTP receiver for webhook tests: records every request and answers
 * with the statuses queued by `respondWith` (then 200).
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly statuses: Array<{ status: number; headers?: Record<string, string> }> = [];
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(path = '/hook'): Promise<WebhookReceiver> {
    const holder: { receiver?: WebhookReceiver } = {};
    const server = createServer((req, res) => {
      const receiver = holder.receiver;
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        receiver?.received.push({
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          atMs: Date.now(),
        });
        const next = receiver?.statuses.shift() ?? { status: 200 };
        res.writeHead(next.status, next.headers).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    holder.receiver = new WebhookReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`);
    return holder.receiver;
  }

  /** The next requests get these statuses, in order. */
  respondWith(...statuses: Array<number | { status: number; headers?: Record<string, string> }>): void {
    this.statuses.push(...statuses.map((s) => (typeof s === 'number' ? { status: s } : s)));
  }

  bodies<T = Record<string, unknown>>(): T[] {
    return this.received.map((r) => JSON.parse(r.body) as T);
  }

  async waitFor(count: number, timeoutMs = 10_000): Promise<ReceivedWebhook[]> {
    const until = Date.now() + timeoutMs;
    while (this.received.length < count) {
      if (Date.now() > until)
        throw new Error(`expected ${count} webhooks, got ${this.received.length} in ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 25));
    }
    return this.received;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
