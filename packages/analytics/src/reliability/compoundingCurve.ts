import type { StoreRows } from '@telltale/store';
import type { Estimate } from '../stats/Interval.js';
import { wilson } from '../stats/wilson.js';

export interface CurveRow {
  /** Attempt groups in the run. */
  groups: number;
  runs: number;
  observed: Estimate;
  /** p̄^n with the fitted p̄. */
  fitted: number;
}

export interface CompoundingCurve {
  /** The per-group success p̄ that best explains success by run length. */
  perGroupSuccess: number | null;
  points: CurveRow[];
}

/**
 * Fits observed success by run length with p̄^n, weighting each length by
 * its run count (least squares, golden-section search on p̄ ∈ [0, 1]; the
 * loss is unimodal in p̄ for these curves).
 */
export function compoundingCurve(points: readonly StoreRows.CurvePoint[]): CompoundingCurve {
  const usable = points.filter((p) => p.runs > 0);
  if (usable.length === 0) return { perGroupSuccess: null, points: [] };
  const loss = (q: number): number =>
    usable.reduce((sum, p) => sum + p.runs * (p.success / p.runs - q ** p.groups) ** 2, 0);
  let lo = 0;
  let hi = 1;
  const phi = (Math.sqrt(5) - 1) / 2;
  for (let i = 0; i < 80; i++) {
    const a = hi - phi * (hi - lo);
    const b = lo + phi * (hi - lo);
    if (loss(a) <= loss(b)) hi = b;
    else lo = a;
  }
  const perGroupSuccess = (lo + hi) / 2;
  return {
    perGroupSuccess,
    points: usable.map((p) => ({
      groups: p.groups,
      runs: p.runs,
      observed: wilson(p.success, p.runs),
      fitted: perGroupSuccess ** p.groups,
    })),
  };
}
