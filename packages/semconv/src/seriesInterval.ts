import { TelltaleError, TelltaleErrorCode } from './errors.js';

/**
 * A series' bucket width in ms from the caller's seconds: a whole number of
 * seconds ≥ 1, else a BAD_REQUEST naming `name` (the option as the caller
 * spelled it).
 */
export function seriesIntervalMs(seconds: number, name = 'interval'): number {
  if (!Number.isInteger(seconds) || seconds < 1)
    throw new TelltaleError({
      code: TelltaleErrorCode.BAD_REQUEST,
      message: `${name} must be a whole number of seconds ≥ 1, got ${seconds}`,
    });
  return seconds * 1000;
}
