/** The spool cannot take a record without passing its size cap: the caller should push back (503). */
export class SpoolFullError extends Error {
  override readonly name = 'SpoolFullError';
  constructor(readonly maxBytes: number) {
    super(`spool is full (${maxBytes} bytes): storage is behind or unreachable`);
  }
}
