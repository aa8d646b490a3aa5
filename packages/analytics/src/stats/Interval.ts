/** An estimate with its 95% interval. `null` estimate when there is no data. */
export interface Estimate {
  value: number | null;
  low: number | null;
  high: number | null;
  /** Sample size the estimate rests on. */
  n: number;
}

export const Z95 = 1.959963984540054;

export const NO_ESTIMATE: Estimate = { value: null, low: null, high: null, n: 0 };

export const clamp01 = (x: number): number => Math.min(1, Math.max(0, x));
