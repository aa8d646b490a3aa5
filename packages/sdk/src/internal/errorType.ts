import { TelltaleError } from '@telltale/semconv';
import { RunGuardError } from '../RunGuardError.js';

/** `code` values that look like identifiers (ETIMEDOUT, rate_limit_exceeded, ERR_X) qualify as error types. */
const CODE_PATTERN = /^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/;

/**
 * The low-cardinality `error.type` of a thrown value:
 * 0. a run guard's stop as `run_guard.<reason>` (`run_guard.timeout`, which the
 *    server counts as a timeout), another named subclass of TelltaleError by its name;
 * 1. a string `code` property that looks like an identifier (`ETIMEDOUT`);
 * 2. else the error's `name`, unless it is the generic `Error`;
 * 3. else its constructor's name (`class RateLimitError extends Error` → `RateLimitError`);
 * 4. `_OTHER` for values that are not objects (a thrown string).
 */
export function errorTypeOf(err: unknown): string {
  if (typeof err !== 'object' || err === null) return '_OTHER';
  if (err instanceof RunGuardError) return `run_guard.${err.reason}`;
  if (err instanceof TelltaleError && err.name !== 'TelltaleError') return err.name;
  const { code, name } = err as { code?: unknown; name?: unknown };
  if (typeof code === 'string' && CODE_PATTERN.test(code)) return code;
  if (typeof name === 'string' && name !== '' && name !== 'Error') return name;
  const ctor = (err as { constructor?: { name?: unknown } }).constructor?.name;
  if (typeof ctor === 'string' && ctor !== '' && ctor !== 'Object') return ctor;
  return '_OTHER';
}

/** The status message of a thrown value. */
export function errorMessageOf(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === 'string') return err;
  try {
    return String(err);
  } catch {
    return 'unknown error';
  }
}
