import type { PostResult } from './postWebhook.js';

export interface RetryOptions {
  /** First retry delay (default 10 s); doubles each attempt. */
  baseDelayMs: number;
  /** Largest delay (default 1 h). */
  maxDelayMs: number;
  /** Attempts before giving up (default 10). */
  maxAttempts: number;
}

export const DEFAULT_RETRY: RetryOptions = { baseDelayMs: 10_000, maxDelayMs: 3_600_000, maxAttempts: 10 };

/** What to do after an attempt. */
export type AttemptOutcome =
  | { outcome: 'delivered' }
  | { outcome: 'retry'; delayMs: number; reason: string }
  | { outcome: 'failed'; reason: string }
  /** 410 Gone: the receiver says never again; the destination is disabled. */
  | { outcome: 'disabled'; reason: string };

/** Exponential backoff with jitter: a random delay in [½, 1] × min(max, base × 2^(attempt − 1)). */
export function backoffMs(attempt: number, opts: RetryOptions, random: () => number = Math.random): number {
  const ceiling = Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** Retry-After as seconds or an HTTP date, in ms from `nowMs`; undefined when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, nowMs: number): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/**
 * Decides on an attempt (1-based): 2xx delivered; 410 disables the
 * destination; 429 (honouring Retry-After), 408, 5xx, timeouts and
 * connection errors retry with backoff until `maxAttempts`; SSRF refusals
 * and other statuses fail at once.
 */
export function decide(
  result: PostResult,
  attempt: number,
  opts: RetryOptions,
  nowMs: number,
  random?: () => number,
): AttemptOutcome {
  let reason: string;
  let delayMs = backoffMs(attempt, opts, random);
  switch (result.kind) {
    case 'refused':
      return { outcome: 'failed', reason: result.message };
    case 'timeout':
    case 'connection':
      reason = `${result.kind}: ${result.message}`;
      break;
    case 'response': {
      const s = result.status;
      if (s >= 200 && s < 300) return { outcome: 'delivered' };
      if (s === 410) return { outcome: 'disabled', reason: 'the receiver answered 410 Gone' };
      if (s !== 429 && s !== 408 && s < 500) return { outcome: 'failed', reason: `the receiver answered ${s}` };
      reason = `the receiver answered ${s}`;
      if (s === 429) delayMs = Math.min(opts.maxDelayMs, retryAfterMs(result.headers['retry-after'], nowMs) ?? delayMs);
      break;
    }
  }
  if (attempt >= opts.maxAttempts) return { outcome: 'failed', reason: `${reason}; gave up after ${attempt} attempts` };
  return { outcome: 'retry', delayMs, reason };
}
