/**
 * A failed API call. `code` is the server's error code (`NOT_FOUND`, …) or one
 * of the client-side codes below; `status` is the HTTP status (0 when the
 * request never got a response).
 */
export const CLIENT_ERROR_CODES = {
  NETWORK: 'NETWORK',
  BAD_RESPONSE: 'BAD_RESPONSE',
  HTTP: 'HTTP',
} as const;

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: string;
  readonly status: number;

  constructor(options: { code: string; message: string; status: number; cause?: unknown }) {
    super(options.message, { cause: options.cause });
    this.code = options.code;
    this.status = options.status;
  }

  get isNotFound(): boolean {
    return this.status === 404;
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}
