import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Session } from 'chdb';

/**
 * Just enough of the ClickHouse HTTP interface, over chDB, for several
 * `telltale` processes to share one ClickHouse as they would a real server:
 * `/ping`; queries in the body or in `query=` (then the body is INSERT data);
 * `param_<name>` query parameters. Settings in the URL are ignored and
 * responses are not compressed. Test-only: String parameters are passed
 * exactly; other types must not need escaping (ids, numbers, plain arrays).
 */
export class ChdbHttpServer {
  private constructor(
    private readonly server: Server,
    private readonly session: Session,
    readonly url: string,
  ) {}

  static async start(dataDir: string): Promise<ChdbHttpServer> {
    const session = new Session(dataDir);
    const server = createServer((req, res) => void handle(session, req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return new ChdbHttpServer(server, session, `http://127.0.0.1:${port}`);
  }

  async close(): Promise<void> {
    const stopped = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await stopped;
    this.session.close();
  }
}

async function readAll(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The client's escaping of a String parameter (\t \n \r \' \\), undone. */
function unescapeParam(text: string): string {
  return text.replace(/\\(.)/g, (_m, c: string) => ({ t: '\t', n: '\n', r: '\r', '0': '\0' })[c] ?? c);
}

async function handle(session: Session, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://x');
  if (url.pathname === '/ping') {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/plain' }).end('Ok.\n');
    return;
  }
  try {
    const body = await readAll(req);
    const inUrl = url.searchParams.get('query');
    const sql = inUrl === null ? body : body === '' ? inUrl : `${inUrl}\n${body}`;
    const params: Record<string, string> = {};
    for (const [key, value] of url.searchParams) {
      if (!key.startsWith('param_')) continue;
      const name = key.slice('param_'.length);
      const type = new RegExp(`\\{${name}:([^}]+)\\}`).exec(sql)?.[1] ?? '';
      params[name] = /^(LowCardinality\()?(Nullable\()?String\)*$/.test(type) ? unescapeParam(value) : value;
    }
    const result = Object.keys(params).length === 0 ? await session.queryAsync(sql, { format: 'TabSeparated' }) : await session.queryBindAsync(sql, params, { format: 'TabSeparated' });
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'x-clickhouse-summary': '{}' }).end(Buffer.from(result.bytes()));
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8', 'x-clickhouse-exception-code': /Code: (\d+)/.exec(message)?.[1] ?? '1001' }).end(message);
  }
}
