/**
 * The one error type of Telltale. Codes are a closed set and stable: a user
 * sees them in API error bodies (`{ error: { code, message } }`), in CLI
 * errors (`telltale: <message> [<code>]`) and on errors the SDK throws; the
 * HTTP status for each code is decided here, once. docs/errors.md says when
 * each happens and what to do.
 */
export const TelltaleErrorCode = {
  /** The request (query parameter, body field, OTLP payload) is malformed or out of range. */
  BAD_REQUEST: 'BAD_REQUEST',
  /** An OTLP request with a content type other than protobuf or JSON. */
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  /** A request body above the server's size limit (`--max-body-bytes`). */
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  /** No such route, run, project, key, rule, destination or notification. */
  NOT_FOUND: 'NOT_FOUND',
  /** No API key, or one the server does not know (or has revoked). */
  UNAUTHORIZED: 'UNAUTHORIZED',
  /** Authenticated, but this key may not do this (e.g. a read key sending spans). */
  FORBIDDEN: 'FORBIDDEN',
  /** The thing to create exists already. */
  CONFLICT: 'CONFLICT',
  /** Over a quota: retry later (HTTP 429 with Retry-After). */
  RATE_LIMITED: 'RATE_LIMITED',
  /** The server cannot take this now (starting, stopping, spool full): retry later. */
  UNAVAILABLE: 'UNAVAILABLE',
  /** The storage (ClickHouse or the spool's disk) failed: retry later, and look at the server log. */
  STORAGE: 'STORAGE',
  /** A fault inside Telltale; the server log has the details. */
  INTERNAL: 'INTERNAL',
  /** CLI: an unknown flag, a missing argument or a value that does not parse (exit status 2). */
  USAGE: 'USAGE',
  /** `telltale start`: a flag or TELLTALE_* variable has a value it does not accept, or two options conflict. */
  INVALID_CONFIG: 'INVALID_CONFIG',
  /** CLI: no answer from the server at `--endpoint` (not running, wrong address, network down). */
  UNREACHABLE: 'UNREACHABLE',
  /** CLI: `--endpoint` answers, but not like a Telltale server of this version (missing route, not JSON). */
  INCOMPATIBLE_SERVER: 'INCOMPATIBLE_SERVER',
  /** `telltale start`: a port (gRPC, metrics) cannot be listened on, e.g. it is in use. */
  LISTEN_FAILED: 'LISTEN_FAILED',
  /** The spool directory is in use by another running Telltale process. */
  SPOOL_LOCKED: 'SPOOL_LOCKED',
  /** A spool file (segment, checkpoint or record) is damaged. */
  SPOOL_CORRUPT: 'SPOOL_CORRUPT',
  /** The spool holds spans of a schema version this build cannot store; they are kept, and draining stops. */
  SPOOL_VERSION: 'SPOOL_VERSION',
  /** SDK: a run guard (loop, max steps, budget, timeout) stopped the run (thrown as RunGuardError). */
  RUN_STOPPED: 'RUN_STOPPED',
  /** SDK: an `instrument*()` helper was given an object it cannot instrument (another library or an unsupported version). */
  UNSUPPORTED_CLIENT: 'UNSUPPORTED_CLIENT',
} as const;
export type TelltaleErrorCode = (typeof TelltaleErrorCode)[keyof typeof TelltaleErrorCode];

/** Whether a string (e.g. the `code` of an API error body) is one of Telltale's codes. */
export function isTelltaleErrorCode(value: string): value is TelltaleErrorCode {
  return Object.hasOwn(TelltaleErrorCode, value);
}

export class TelltaleError extends Error {
  override readonly name: string = 'TelltaleError';
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
  USAGE: 400,
  INVALID_CONFIG: 400,
  // the CLI's own failures and the SDK's guard never cross HTTP; a status is still defined for each
  UNREACHABLE: 502,
  INCOMPATIBLE_SERVER: 502,
  LISTEN_FAILED: 503,
  SPOOL_LOCKED: 503,
  SPOOL_CORRUPT: 500,
  SPOOL_VERSION: 503,
  RUN_STOPPED: 409,
  UNSUPPORTED_CLIENT: 400,
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
  USAGE: 3, // INVALID_ARGUMENT
  INVALID_CONFIG: 3, // INVALID_ARGUMENT
  UNREACHABLE: 14, // UNAVAILABLE
  INCOMPATIBLE_SERVER: 12, // UNIMPLEMENTED
  LISTEN_FAILED: 14, // UNAVAILABLE
  SPOOL_LOCKED: 14, // UNAVAILABLE
  SPOOL_CORRUPT: 15, // DATA_LOSS
  SPOOL_VERSION: 9, // FAILED_PRECONDITION
  RUN_STOPPED: 10, // ABORTED
  UNSUPPORTED_CLIENT: 3, // INVALID_ARGUMENT
};
