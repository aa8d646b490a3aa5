/** HTTP status of a provider error → a normalized, provider-independent `error.type`. */
const BY_STATUS: Readonly<Record<number, string>> = {
  400: 'bad_request',
  401: 'authentication',
  403: 'permission_denied',
  404: 'not_found',
  408: 'timeout',
  409: 'conflict',
  413: 'request_too_large',
  422: 'unprocessable',
  429: 'rate_limit',
  500: 'server_error',
  502: 'server_error',
  503: 'unavailable',
  504: 'timeout',
  529: 'overloaded',
};

/** Class names of the `openai` / `@anthropic-ai/sdk` errors that carry no HTTP status. */
const BY_CLASS: Readonly<Record<string, string>> = {
  APIUserAbortError: 'aborted',
  APIConnectionTimeoutError: 'timeout',
  APIConnectionError: 'connection',
};

/**
 * The low-cardinality `error.type` of an error thrown by a model client:
 * its HTTP status mapped to a normalized name (`429` → `rate_limit`), else
 * a known error class mapped (`APIUserAbortError` → `aborted`), else
 * undefined (the SDK's usual rules apply).
 */
export function providerErrorType(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const status = (err as { status?: unknown }).status;
  if (typeof status === 'number') {
    const known = BY_STATUS[status];
    if (known !== undefined) return known;
    if (status >= 500) return 'server_error';
    if (status >= 400) return 'client_error';
  }
  return BY_CLASS[errorClassName(err)];
}

/** The error's class name (`RateLimitError`), for the exception event. */
export function errorClassName(err: object): string {
  const ctor = (err as { constructor?: { name?: unknown } }).constructor?.name;
  if (typeof ctor === 'string' && ctor !== '' && ctor !== 'Object' && ctor !== 'Error') return ctor;
  const name = (err as { name?: unknown }).name;
  return typeof name === 'string' && name !== '' ? name : 'Error';
}

/**
 * What the failed step records for `err`: an error with the original's
 * message and stack, its class as `name` and the normalized type as
 * `code` (which becomes `error.type`). The caller still gets `err` itself.
 */
export function recordableError(err: unknown): unknown {
  if (typeof err !== 'object' || err === null) return err;
  const type = providerErrorType(err);
  if (type === undefined) return err;
  const original = err as { message?: unknown; stack?: unknown };
  const recorded = new Error(typeof original.message === 'string' ? original.message : errorClassName(err));
  recorded.name = errorClassName(err);
  if (typeof original.stack === 'string') recorded.stack = original.stack;
  return Object.assign(recorded, { code: type });
}
