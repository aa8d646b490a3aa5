import { isTelltaleErrorCode, TelltaleErrorCode } from '@telltale/semconv';
import { CliError, EXIT } from './CliError.js';

export type QueryValues = Record<string, string | number | undefined>;

/**
 * The server answered an error: its status, and its `{ error: { code, message } }` when it sent one. The error's
 * code is the server's (INCOMPATIBLE_SERVER when the answer carries none Telltale knows). The exit status is 2
 * when the command cannot be carried out as given (a malformed request, a wrong key: 400, 401, 403), 1 when the
 * server refused it for what it holds or failed (no such rule, exists already, rate limited, a server error).
 */
export class ApiResponseError extends CliError {
  constructor(
    message: string,
    readonly status: number,
    serverCode: string | undefined,
    readonly serverMessage: string | undefined,
  ) {
    super(
      message,
      status === 400 || status === 401 || status === 403 ? EXIT.USAGE : 1,
      serverCode !== undefined && isTelltaleErrorCode(serverCode) ? serverCode : TelltaleErrorCode.INCOMPATIBLE_SERVER,
    );
  }
}

/** Requests to a Telltale server's `/api/v1`; every failure is a CliError saying what went wrong. */
export class ApiClient {
  readonly base: string;

  constructor(
    endpoint: string,
    private readonly apiKey?: string,
    private readonly timeoutMs = 30_000,
    /** What to tell the user after a 401 / 403. */
    private readonly keyHint = 'pass --api-key or set TELLTALE_API_KEY',
  ) {
    let url: URL;
    try {
      url = new URL(endpoint);
    } catch {
      throw new CliError(`invalid --endpoint "${endpoint}": expected a URL like http://127.0.0.1:4318`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new CliError(`invalid --endpoint "${endpoint}": http or https only`);
    this.base = url.href.replace(/\/+$/, '');
  }

  urlOf(path: string, query: QueryValues = {}): string {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
    const qs = params.toString();
    return `${this.base}/api/v1${path}${qs === '' ? '' : `?${qs}`}`;
  }

  async get<T>(path: string, query: QueryValues = {}): Promise<T> {
    const found = await this.request<T>(path, query);
    if (found === undefined)
      throw new CliError(
        `${this.base} has no ${path} route: is it a Telltale server of this version?`,
        undefined,
        TelltaleErrorCode.INCOMPATIBLE_SERVER,
      );
    return found;
  }

  /** Like `get`, but `undefined` when the server does not have the route (an older server). */
  async getOptional<T>(path: string, query: QueryValues = {}): Promise<T | undefined> {
    return this.request<T>(path, query);
  }

  /** POST / PUT / DELETE with an optional JSON body. */
  async send<T>(method: 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
    const found = await this.request<T>(path, {}, method, body);
    if (found === undefined)
      throw new CliError(
        `${this.base} has no ${method} ${path} route: is it a Telltale server of this version?`,
        undefined,
        TelltaleErrorCode.INCOMPATIBLE_SERVER,
      );
    return found;
  }

  private async request<T>(
    path: string,
    query: QueryValues,
    method = 'GET',
    payload?: unknown,
  ): Promise<T | undefined> {
    const url = this.urlOf(path, query);
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: {
          accept: 'application/json',
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
          ...(this.apiKey === undefined || this.apiKey === '' ? {} : { authorization: `Bearer ${this.apiKey}` }),
        },
        ...(payload === undefined ? {} : { body: JSON.stringify(payload) }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      const reason = cause?.code ?? cause?.message ?? (err as Error).message;
      throw new CliError(
        `cannot reach the Telltale server at ${this.base}: ${reason}`,
        undefined,
        TelltaleErrorCode.UNREACHABLE,
      );
    }
    const text = await res.text();
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      throw new CliError(
        `${this.base} answered ${res.status} with a body that is not JSON: is it a Telltale server?`,
        undefined,
        TelltaleErrorCode.INCOMPATIBLE_SERVER,
      );
    }
    if (res.ok) return body as T;
    const error = (body as { error?: { code?: string; message?: string } } | undefined)?.error;
    if (res.status === 404 && error?.message?.startsWith('no API route') === true) return undefined;
    if (res.status === 401 || res.status === 403) {
      throw new ApiResponseError(
        `${this.base} refused the request (${res.status}${error?.message === undefined ? '' : `: ${error.message}`}): ${this.keyHint}`,
        res.status,
        error?.code,
        error?.message,
      );
    }
    throw new ApiResponseError(
      `${method} ${path} answered ${res.status}: ${error?.message ?? text.slice(0, 200)}`,
      res.status,
      error?.code,
      error?.message,
    );
  }
}
