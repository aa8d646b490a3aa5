import type { Backoff } from '../types.js';
import { reportFault } from './reportFault.js';

/**
 * Milliseconds to wait after attempt `failedAttempt` (1-based) failed, under a
 * checked backoff policy (`jitter` from 0 to 1). Never negative, never throws.
 */
export function backoffDelay(
  backoff: Backoff | undefined,
  failedAttempt: number,
  random: () => number = Math.random,
): number {
  if (backoff === undefined) return 0;
  try {
    if (typeof backoff === 'function') return sanitize(backoff(failedAttempt));
    const { initialMs, factor = 2, maxMs = Number.POSITIVE_INFINITY, jitter = 0 } = backoff;
    const base = Math.min(maxMs, initialMs * factor ** (failedAttempt - 1));
    const share = jitter === true ? 1 : jitter === false ? 0 : jitter;
    return sanitize(base * (1 - share * random()));
  } catch (err) {
    reportFault('retry', err);
    return 0;
  }
}

function sanitize(ms: number): number {
  return Number.isFinite(ms) && ms > 0 ? ms : 0;
}
