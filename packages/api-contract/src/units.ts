/**
 * Brand units, so a millisecond is never plotted as a nanosecond and a token
 * count is never printed as dollars. The response schemas convert the wire
 * values into these types; elsewhere values enter them through the
 * constructors below.
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
