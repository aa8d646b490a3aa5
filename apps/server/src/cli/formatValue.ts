/** Terminal formatting of the API's numbers; `—` where there is no value. */
export const NONE = '—';

export function formatPercent(x: number | null | undefined, digits = 1): string {
  return x === null || x === undefined || !Number.isFinite(x) ? NONE : `${(x * 100).toFixed(digits)}%`;
}

/** A difference of two fractions in percentage points, signed. */
export function formatPoints(x: number | null | undefined, digits = 1): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return NONE;
  const pp = x * 100;
  return `${pp > 0 ? '+' : pp < 0 ? '−' : '±'}${Math.abs(pp).toFixed(digits)} pp`;
}

export function formatRange(
  low: number | null | undefined,
  high: number | null | undefined,
  format: (x: number) => string,
): string {
  if (low === null || low === undefined || high === null || high === undefined) return NONE;
  return `${format(low)} – ${format(high)}`;
}

/** Nanoseconds as µs / ms / s / min with three significant digits. */
export function formatDurationNs(ns: number | null | undefined): string {
  if (ns === null || ns === undefined || !Number.isFinite(ns)) return NONE;
  const abs = Math.abs(ns);
  if (abs < 1e6) return `${sig(ns / 1e3)} µs`;
  if (abs < 1e9) return `${sig(ns / 1e6)} ms`;
  if (abs < 120e9) return `${sig(ns / 1e9)} s`;
  return `${sig(ns / 60e9)} min`;
}

export function formatUsd(usd: number | null | undefined): string {
  if (usd === null || usd === undefined || !Number.isFinite(usd)) return NONE;
  if (usd === 0) return '$0';
  const abs = Math.abs(usd);
  return `${usd < 0 ? '−' : ''}$${abs >= 100 ? abs.toFixed(0) : abs >= 1 ? abs.toFixed(2) : sig(abs)}`;
}

export function formatCount(n: number | null | undefined): string {
  return n === null || n === undefined || !Number.isFinite(n) ? NONE : Math.round(n).toLocaleString('en-US');
}

function sig(x: number): string {
  return Number(x.toPrecision(3)).toString();
}
