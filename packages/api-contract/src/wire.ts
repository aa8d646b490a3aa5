import { z } from 'zod';
import { fraction, nanoseconds, parseNanoseconds, parseUnixNanos, usd } from './units.js';

/**
 * The value types every response is built from, parsed into brand units:
 * decimal nanosecond strings become `UnixNanos` (bigint) timestamps and
 * `Nanoseconds` durations, dollars become `Usd`, proportions `Fraction`.
 * Objects are open: fields a client does not know are dropped, so the server
 * can grow.
 */
const decimalNanos = z.string().regex(/^\d+$/, 'expected a decimal nanosecond string');

/** An absolute time as a decimal nanosecond string. */
export const UnixNanosString = decimalNanos.transform(parseUnixNanos);
/** A duration as a decimal nanosecond string. */
export const DurationString = decimalNanos.transform(parseNanoseconds);
/** A duration in nanoseconds as a JSON number. */
export const DurationNs = z.number().nonnegative().transform(nanoseconds);
export const Money = z.number().transform(usd);
export const Rate = z.number().transform(fraction);
export const Count = z.number().int().nonnegative();

/** Every non-2xx response carries this body. */
export const ApiErrorBody = z.object({ error: z.object({ code: z.string(), message: z.string() }) });
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;
