/** A failure of a simulated tool or model; `code` becomes the span's `error.type`. */
export class SimulatedFailure extends Error {
  override readonly name = 'SimulatedFailure';

  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Transient failures worth retrying. */
const TRANSIENT = new Set(['rate_limit_exceeded', 'ETIMEDOUT', 'ECONNRESET', 'overloaded_error', 'http_503']);

export function isTransient(err: unknown): boolean {
  return err instanceof SimulatedFailure && TRANSIENT.has(err.code);
}
