import type { Fraction, Nanoseconds, UnixNanos, Usd } from './units';
import { unixNanosToEpochMillis } from './units';

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** Three significant digits at most, trailing zeros dropped: 1.5, 12.3, 123. */
function sig3(value: number): string {
  if (value >= 100) return Math.round(value).toString();
  if (value >= 10) return stripZeros(value.toFixed(1));
  return stripZeros(value.toFixed(2));
}

function stripZeros(fixed: string): string {
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}

/** Sub-minute units, smallest first: [exclusive upper bound in ns, unit, ns per unit]. */
const DURATION_UNITS: readonly (readonly [number, string, number])[] = [
  [1e3, 'ns', 1],
  [1e6, 'µs', 1e3],
  [1e9, 'ms', 1e6],
  [60e9, 's', 1e9],
];

/**
 * A duration in the most readable unit: `0`, `850 ns`, `12.5 µs`, `4.56 ms`, `1.23 s`,
 * `2m 05s`, `1h 02m`. Durations can be sub-millisecond, so nanoseconds go all the way down.
 */
export function formatDuration(ns: Nanoseconds): string {
  if (!Number.isFinite(ns) || ns < 0) return '–';
  if (ns === 0) return '0';
  for (const [limit, unit, perUnit] of DURATION_UNITS) {
    const text = sig3(ns / perUnit);
    // Rounding can carry into the next unit (999.7 µs → "1000"): fall through to it.
    if (Number(text) * perUnit < limit) return `${text} ${unit}`;
  }
  const seconds = Math.round(ns / 1e9);
  if (seconds < 3_600) return `${Math.floor(seconds / 60)}m ${pad2(seconds % 60)}s`;
  const minutes = Math.round(seconds / 60);
  return `${Math.floor(minutes / 60)}h ${pad2(minutes % 60)}m`;
}

function pad2(n: number): string {
  return n.toString().padStart(2, '0');
}

/** Decimals for dollar amounts up to `scale`: whole dollars from $1,000, cents from $1, else hundredths of a cent. */
function usdDigits(scale: number): number {
  return scale >= 1_000 ? 0 : scale >= 1 ? 2 : 4;
}

/**
 * Dollars with precision that suits agent costs: `$0`, `$0.0042`, `$0.42`, `$12.35`,
 * `$1,234`. Values below a hundredth of a cent read `<$0.0001`.
 *
 * With `scale`, amounts read side by side get one precision, the one that suits
 * `scale` (their total, their largest): `$1.56`, `$0.43`, `<$0.01`, trailing zeros kept.
 */
export function formatUsd(value: Usd | null, scale?: number): string {
  if (value === null || !Number.isFinite(value)) return '–';
  if (value === 0) return '$0';
  const sign = value < 0 ? '-' : '';
  const abs = Math.abs(value);
  if (scale !== undefined && Number.isFinite(scale)) {
    const digits = usdDigits(Math.abs(scale));
    const smallest = 10 ** -digits;
    if (abs < smallest) return `${sign}<$${smallest.toFixed(digits)}`;
    return `${sign}$${abs.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })}`;
  }
  if (abs < 0.0001) return `${sign}<$0.0001`;
  if (abs < 1) return `${sign}$${stripZeros(abs.toFixed(usdDigits(abs)))}`;
  return `${sign}$${abs < 1_000 ? abs.toFixed(usdDigits(abs)) : integer.format(abs)}`;
}

/**
 * A difference of two rates in percentage points, signed: `+4.5 pts`, `−3.2 pts`,
 * `0 pts` (what rounds to nothing).
 */
export function formatPoints(value: number): string {
  if (!Number.isFinite(value)) return '–';
  const text = Math.abs(value * 100).toFixed(1);
  return text === '0.0' ? '0 pts' : `${value > 0 ? '+' : '−'}${text} pts`;
}

/** A ratio as a percentage: `0%`, `83.3%`, `100%`. */
export function formatPercent(value: Fraction, digits = 1): string {
  if (!Number.isFinite(value)) return '–';
  return `${stripZeros((value * 100).toFixed(digits))}%`;
}

/** An integer count with thousands separators: `12,345`. */
export function formatCount(value: number): string {
  return integer.format(value);
}

/** A token count, compact above ten thousand: `950`, `12.3k`, `4.5M`. */
export function formatTokens(value: number): string {
  if (value < 10_000) return integer.format(value);
  if (value < 1_000_000) return `${stripZeros((value / 1_000).toFixed(1))}k`;
  return `${stripZeros((value / 1_000_000).toFixed(1))}M`;
}

/**
 * An absolute time as `2025-03-14 09:26:53` in the given time zone (the
 * browser's by default): sortable, unambiguous, compact enough for a table.
 */
export function formatTimestamp(at: UnixNanos, timeZone?: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(unixNanosToEpochMillis(at)));
  const get = (type: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}:${get('second')}`;
}

/** An absolute time as an ISO-8601 UTC string (for tooltips and `<time dateTime>`). */
export function formatIso(at: UnixNanos): string {
  return new Date(unixNanosToEpochMillis(at)).toISOString();
}

/** A ratio that may be unknown (no data): `–` then. */
export function formatMaybePercent(value: Fraction | null, digits = 1): string {
  return value === null ? '–' : formatPercent(value, digits);
}
