import { setTimeout as sleep } from 'node:timers/promises';
import type { RetryPolicy } from '../types.js';
import { backoffDelay } from './backoffDelay.js';
import { reportFault } from './reportFault.js';

/**
 * Calls `attempt(n, max)` for n = 1…max (`policy` is checked: `attempts` is an
 * integer ≥ 1) until one resolves; returns that value, or rethrows the last
 * error unchanged (at once when `retryIf` says no).
 */
export async function runAttempts<T>(policy: RetryPolicy, attempt: (n: number, max: number) => Promise<T>): Promise<T> {
  const max = policy.attempts;
  for (let n = 1; ; n++) {
    try {
      return await attempt(n, max);
    } catch (err) {
      if (n >= max || !shouldRetry(policy, err)) throw err;
      const ms = backoffDelay(policy.backoff, n);
      if (ms > 0) await sleep(ms);
    }
  }
}

function shouldRetry(policy: RetryPolicy, err: unknown): boolean {
  if (policy.retryIf === undefined) return true;
  try {
    return policy.retryIf(err);
  } catch (fault) {
    reportFault('retry', fault);
    return false;
  }
}
