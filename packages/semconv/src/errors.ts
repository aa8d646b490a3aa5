/**
 * The one error type of the server side. Codes are a closed set; the HTTP
 * status for each code is decided in one place (apps/server).
 */
export const TelltaleErrorCode = {
  BAD_REQUEST: 'BAD_REQUEST',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  NOT_FOUND: 'NOT_FOUND',
  UNAUTHORIZED: 'UNAUTHORIZED',
  /** Authenticated, but this key may not do this (e.g. a read key sending spans). */
  FORBIDDEN: 'FORBIDDEN',
  /** The thing to create exists already. */
  CONFLICT: 'CONFLICT',
  /** Over a quota: retry later (HTTP 429 with Retry-After). */
  RATE_LIMITED: 'RATE_LIMITED',
  UNAVAILABLE: 'UNAVAILABLE',
  STORAGE: 'STORAGE',
  INTERNAL: 'INTERNAL',
} as const;
export type TelltaleErrorCode = (typeof TelltaleErrorCode)[keyof typeof TelltaleErrorCode];

export class TelltaleError extends Error {
  override readonly name = 'TelltaleError';
  readonly code: TelltaleErrorCode;

  constructor(opts: { code: TelltaleErrorCode; message: string; cause?: unknown }) {
    super(opts.message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.code = opts.code;
  }
}

/** Normalises anything thrown into a TelltaleError (unknown faults become INTERNAL). */
export function toTelltaleError(err: unknown): TelltaleError {
  if (err instanceof TelltaleError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new TelltaleError({ code: TelltaleErrorCode.INTERNAL, message, cause: err });
}

/** The one mapping from error codes to HTTP statuses (API and OTLP receivers alike). */
export const HTTP_STATUS_BY_CODE: Readonly<Record<TelltaleErrorCode, number>> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  STORAGE: 503,
  UNAVAILABLE: 503,
};

/** gRPC / google.rpc.Status codes for the same errors (OTLP puts them in error bodies). */
export const RPC_STATUS_BY_CODE: Readonly<Record<TelltaleErrorCode, number>> = {
  BAD_REQUEST: 3, // INVALID_ARGUMENT
  UNAUTHORIZED: 16, // UNAUTHENTICATED
  FORBIDDEN: 7, // PERMISSION_DENIED
  CONFLICT: 6, // ALREADY_EXISTS
  RATE_LIMITED: 8, // RESOURCE_EXHAUSTED
  NOT_FOUND: 5, // NOT_FOUND
  PAYLOAD_TOO_LARGE: 8, // RESOURCE_EXHAUSTED
  UNSUPPORTED_MEDIA_TYPE: 3, // INVALID_ARGUMENT
  INTERNAL: 13, // INTERNAL
  STORAGE: 14, // UNAVAILABLE
  UNAVAILABLE: 14, // UNAVAILABLE
};
