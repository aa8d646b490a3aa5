/**
 * 1-based nearest rank ⌈q·n⌉, with q·n taken as the whole number it is meant
 * to be when float64 lands within 1e-9 of one (0.07 × 100 = 7.000000000000001
 * is rank 7, not 8).
 */
function nearestRank(q: number, n: number): number {
  const x = q * n;
  const whole = Math.round(x);
  const rank = Math.abs(x - whole) <= 1e-9 * Math.max(1, x) ? whole : Math.ceil(x);
  return Math.min(n, Math.max(1, rank));
}

/**
 * The exact percentile every Telltale latency and cost number is tested
 * against — nearest rank: the smallest value v such that at least q·n of the
 * n values are ≤ v, i.e. the value at 1-based rank ⌈q·n⌉ of the sorted values
 * (the minimum for q = 0, the maximum for q = 1). NaN for no values.
 *
 * ClickHouse has no function with exactly this definition at every level:
 * `quantileExact(q)` returns the value at 0-based index ⌊q·n⌋ (one rank higher
 * whenever q·n is whole), so the SQL asks for `quantileExact(q − 1e-12)`
 * (`quantilesExact`, `quantilesExactIf`), which gives rank ⌈q·n⌉ for levels
 * with at most three decimals and fewer than 10^9 values.
 * `quantileExactLow` agrees at q = 0.5 only (the lower median).
 */
export function exactPercentile(values: ArrayLike<number>, q: number): number {
  return exactPercentiles(values, [q])[0]!;
}

/** {@link exactPercentile} at several levels with one sort. */
export function exactPercentiles(values: ArrayLike<number>, qs: readonly number[]): number[] {
  const n = values.length;
  for (const q of qs) if (!(q >= 0 && q <= 1)) throw new RangeError(`percentile level must be in [0, 1], got ${q}`);
  if (n === 0) return qs.map(() => Number.NaN);
  const sorted = Float64Array.from(values).sort();
  return qs.map((q) => sorted[nearestRank(q, n) - 1]!);
}
