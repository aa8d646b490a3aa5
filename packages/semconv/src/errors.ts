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
