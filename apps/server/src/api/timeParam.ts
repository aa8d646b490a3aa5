import { z } from 'zod';

/** A time bound as unix milliseconds or ISO-8601 text, converted to nanoseconds. */
export const TimeParam = z.union([z.string().regex(/^\d{1,16}$/), z.iso.datetime({ offset: true })]).transform((value, ctx) => {
  const ms = /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  if (!Number.isFinite(ms)) {
    ctx.addIssue({ code: 'custom', message: 'not a time' });
    return z.NEVER;
  }
  return BigInt(ms) * 1_000_000n;
});
