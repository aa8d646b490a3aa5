/**
 * Brand units, so a millisecond is never plotted as a nanosecond and a token
 * count is never printed as dollars. Values cross into these types only at the
 * API boundary (the response schemas of `@telltale/api-contract`) or through the constructors below.
 */
import {
  milliseconds,
  nanoseconds,
  unixNanos,
  type Milliseconds,
  type Nanoseconds,
  type UnixNanos,
} from '@telltale/api-contract';

// The brands and their constructors are the API contract's (its response schemas produce them).
export {
  fraction,
  milliseconds,
  nanoseconds,
  parseNanoseconds,
  parseUnixNanos,
  unixNanos,
  usd,
} from '@telltale/api-contract';
export type { Fraction, Milliseconds, Nanoseconds, UnixNanos, Usd } from '@telltale/api-contract';

export const NS_PER_MS = 1_000_000;

/** The (non-negative) span of time from `from` to `to`; 0 when `to` precedes `from`. */
export function nanosBetween(from: UnixNanos, to: UnixNanos): Nanoseconds {
  return nanoseconds(to > from ? Number(to - from) : 0);
}

export function addNanos(at: UnixNanos, duration: Nanoseconds): UnixNanos {
  return unixNanos(at + BigInt(Math.round(duration)));
}

export function nanosToMillis(ns: Nanoseconds): Milliseconds {
  return milliseconds(ns / NS_PER_MS);
}

/** Milliseconds since the epoch (for `Date`); sub-millisecond precision is dropped. */
export function unixNanosToEpochMillis(at: UnixNanos): Milliseconds {
  return milliseconds(Number(at / 1_000_000n));
}

export function minUnixNanos(a: UnixNanos, b: UnixNanos): UnixNanos {
  return a < b ? a : b;
}

export function maxUnixNanos(a: UnixNanos, b: UnixNanos): UnixNanos {
  return a > b ? a : b;
}
