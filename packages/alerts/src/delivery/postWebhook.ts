import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { checkUrl, pinnedLookup, SsrfError, type Resolver, type SsrfPolicy } from './ssrfGuard.js';

export interface PostOptions {
  headers: Record<string, string>;
  timeoutMs: number;
  policy: SsrfPolicy;
  resolve?: Resolver;
  /** Redirects followed, each hop checked again (default 3). */
  maxRedirects?: number;
}

/** What one POST came to: a status, or an error of a kind the retry policy understands. */
export type PostResult =
  | { kind: 'response'; status: number; headers: IncomingHttpHeaders; url: string }
  | { kind: 'timeout' | 'connection' | 'refused'; message: string; url: string };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * POSTs `body` to `url` through the SSRF guard: every hop (redirects are
 * followed by hand, re-POSTing the same body) is resolved, checked, and
 * connected to at the checked address. `refused` means the guard said no.
 */
export async function postWebhook(url: string, body: string, opts: PostOptions): Promise<PostResult> {
  let current = url;
  for (let hop = 0; ; hop++) {
    let checked;
    try {
      checked = await checkUrl(current, opts.policy, opts.resolve);
    } catch (err) {
      if (err instanceof SsrfError)
        return { kind: 'refused', message: hop === 0 ? err.message : `redirect refused: ${err.message}`, url: current };
      throw err;
    }
    const result = await postOnce(checked.url, checked.addresses, body, opts);
    if (result.kind !== 'response' || !REDIRECTS.has(result.status)) return result;
    const location = result.headers.location;
    if (location === undefined) return result;
    if (hop >= (opts.maxRedirects ?? 3))
      return { kind: 'refused', message: `more than ${opts.maxRedirects ?? 3} redirects`, url: current };
    current = new URL(location, checked.url).href;
  }
}

function postOnce(
  url: URL,
  addresses: Parameters<typeof pinnedLookup>[0],
  body: string,
  opts: PostOptions,
): Promise<PostResult> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const done = (r: PostResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const req = request(
      url,
      {
        method: 'POST',
        lookup: pinnedLookup(addresses),
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'telltale-webhooks/1',
          ...opts.headers,
        },
      },
      (res) => {
        // the body is not needed: drain at most a little of it, then let the socket go
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > 65_536) res.destroy();
        });
        res.on('error', () => undefined);
        res.on('close', () =>
          done({ kind: 'response', status: res.statusCode ?? 0, headers: res.headers, url: url.href }),
        );
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      done({ kind: 'timeout', message: `no answer within ${opts.timeoutMs} ms`, url: url.href });
    }, opts.timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) =>
      done({ kind: 'connection', message: err.code ?? err.message, url: url.href }),
    );
    req.end(body);
  });
}
