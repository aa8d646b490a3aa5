import { formatIso, formatTimestamp } from '../format';
import { unixNanos } from '../units';

/** Epoch milliseconds (the alerts API's times) as `2025-03-14 09:26:53` in the browser's (or the given) time zone. */
export function formatEpochMs(ms: number | null | undefined, timeZone?: string): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '–';
  return formatTimestamp(unixNanos(BigInt(Math.round(ms)) * 1_000_000n), timeZone);
}

/** Epoch milliseconds as ISO-8601 UTC (for `<time dateTime>` and tooltips). */
export function isoEpochMs(ms: number): string {
  return formatIso(unixNanos(BigInt(Math.round(ms)) * 1_000_000n));
}
