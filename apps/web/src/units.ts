/**
 * Brand units, so a millisecond is never plotted as a nanosecond and a token
 * count is never printed as dollars. Values cross into these types only at the
 * API boundary (`api/schemas.ts`) or through the constructors below.
 */
declare const brand: unique symbol;
type Brand<T, B extends string> = T & { readonly [brand]: B };

/** An absolute OTLP timestamp: nanoseconds since the Unix epoch (exceeds 2^53, so bigint). */
export type UnixNanos = Brand<bigint, 'UnixNanos'>;
/** A duration or an offset between two timestamps, in nanoseconds (exact below ~104 days). */
export type Nanoseconds = Brand<number, 'Nanoseconds'>;
/** A duration in milliseconds (what `Date` and charts speak). */
export type Milliseconds = Brand<number, 'Milliseconds'>;
/** A cost in US dollars. */
export type Usd = Brand<number, 'Usd'>;
/** A ratio in [0, 1] (rendered as a percentage). */
export type Fraction = Brand<number, 'Fraction'>;

export const NS_PER_MS = 1_000_000;

export const unixNanos = (value: bigint): UnixNanos => value as UnixNanos;
export const nanoseconds = (value: number): Nanoseconds => value as Nanoseconds;
export const milliseconds = (value: number): Milliseconds => value as Milliseconds;
export const usd = (value: number): Usd => value as Usd;
export const fraction = (value: number): Fraction => value as Fraction;

/** Parse a decimal nanosecond string (the wire format) into an absolute timestamp. */
export function parseUnixNanos(decimal: string): UnixNanos {
  return unixNanos(BigInt(decimal));
}

/** Parse a decimal nanosecond string into a duration. */
export function parseNanoseconds(decimal: string): Nanoseconds {
  return nanoseconds(Number(BigInt(decimal)));
}

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
