import type { z } from 'zod';
import { ApiError, CLIENT_ERROR_CODES } from './ApiError';
import { storedReadKey } from './readKey';
import { ApiErrorBody } from '@telltale/api-contract';

export interface RequestOptions {
  signal?: AbortSignal | undefined;
  /** Injected in tests; the browser's `fetch` otherwise. */
  fetch?: typeof fetch | undefined;
  /** Sent as `Authorization: Bearer`; default: the key stored in this browser, if any. */
  readKey?: string | undefined;
}

/**
 * GET a JSON resource and parse it with `schema`. Every failure — network,
 * non-2xx (with the server's `{ error: { code, message } }` body), a body that
 * breaks the contract — becomes an `ApiError`.
 */
export function getJson<S extends z.ZodType>(
  url: string,
  schema: S,
  options: RequestOptions = {},
): Promise<z.output<S>> {
  return requestJson('GET', url, undefined, schema, options);
}

export type WriteMethod = 'POST' | 'PUT' | 'DELETE';

/**
 * POST/PUT/DELETE `body` (sent as JSON when given) and parse the answer with
 * `schema`; failures become `ApiError`s exactly as with `getJson` (a 400's
 * message names the offending field).
 */
export function sendJson<S extends z.ZodType>(
  method: WriteMethod,
  url: string,
  body: unknown,
  schema: S,
  options: RequestOptions = {},
): Promise<z.output<S>> {
  return requestJson(method, url, body, schema, options);
}

async function requestJson<S extends z.ZodType>(
  method: 'GET' | WriteMethod,
  url: string,
  requestBody: unknown,
  schema: S,
  options: RequestOptions,
): Promise<z.output<S>> {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  let response: Response;
  try {
    const readKey = 'readKey' in options ? options.readKey : storedReadKey();
    const headers: Record<string, string> = { accept: 'application/json' };
    if (readKey !== undefined) headers.authorization = `Bearer ${readKey}`;
    const init: RequestInit = { method, headers, signal: options.signal ?? null };
    if (requestBody !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(requestBody);
    }
    response = await doFetch(url, init);
  } catch (cause) {
    if (options.signal?.aborted) throw cause;
    throw new ApiError({
      code: CLIENT_ERROR_CODES.NETWORK,
      message: `Cannot reach the Telltale server (${url})`,
      status: 0,
      cause,
    });
  }

  const body = await readJson(response);
  if (!response.ok) {
    const parsed = ApiErrorBody.safeParse(body);
    throw parsed.success
      ? new ApiError({ code: parsed.data.error.code, message: parsed.data.error.message, status: response.status })
      : new ApiError({
          code: CLIENT_ERROR_CODES.HTTP,
          message: `${response.status} ${response.statusText}`.trim(),
          status: response.status,
        });
  }

  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
    throw new ApiError({
      code: CLIENT_ERROR_CODES.BAD_RESPONSE,
      message: `Unexpected response from ${url}${where}: ${issue?.message ?? 'invalid body'}`,
      status: response.status,
      cause: parsed.error,
    });
  }
  return parsed.data;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
