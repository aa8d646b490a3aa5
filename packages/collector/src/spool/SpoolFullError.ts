import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';

/** The spool cannot take a record without passing its size cap: the caller should push back (503 UNAVAILABLE). */
export class SpoolFullError extends TelltaleError {
  override readonly name: string = 'SpoolFullError';
  constructor(readonly maxBytes: number) {
    super({
      code: TelltaleErrorCode.UNAVAILABLE,
      message: `spool is full (${maxBytes} bytes): storage is behind or unreachable`,
    });
  }
}
