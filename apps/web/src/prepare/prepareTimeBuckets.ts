import type { TimeWindow } from './dashboardFilters';

/** Bucket widths the dashboard composes series from, smallest first (ms). */
const WIDTHS_MS = [
  60_000,
  300_000,
  900_000,
  1_800_000,
  3_600_000,
  3 * 3_600_000,
  6 * 3_600_000,
  12 * 3_600_000,
  86_400_000,
  2 * 86_400_000,
  7 * 86_400_000,
];

/**
 * Cuts a window into at most `maxBuckets` aligned buckets of one width (the
 * finest that fits), for series the API answers one window at a time. The
 * first and last buckets are clipped to the window, so the buckets tile it exactly.
 */
export function prepareTimeBuckets(window: TimeWindow, maxBuckets: number): TimeWindow[] {
  const span = window.toMs - window.fromMs;
  if (span <= 0 || maxBuckets < 1) return [];
  const width =
    WIDTHS_MS.find((w) => Math.ceil(window.toMs / w) - Math.floor(window.fromMs / w) <= maxBuckets) ??
    Math.ceil(span / maxBuckets);
  const buckets: TimeWindow[] = [];
  for (let start = Math.floor(window.fromMs / width) * width; start < window.toMs; start += width) {
    buckets.push({ fromMs: Math.max(start, window.fromMs), toMs: Math.min(start + width, window.toMs) });
  }
  return buckets;
}

/** An axis label for an epoch-ms instant: time of day for windows up to two days, else the date (UTC unless given). */
export function timeLabel(ms: number, spanMs: number, timeZone?: string): string {
  const options: Intl.DateTimeFormatOptions =
    spanMs <= 2 * 86_400_000
      ? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone }
      : { month: 'short', day: 'numeric', hour: '2-digit', hourCycle: 'h23', timeZone };
  return new Intl.DateTimeFormat('en-GB', options).format(new Date(ms));
}
