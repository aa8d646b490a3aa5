import type { LooseRow } from './compareRows.js';

/** Store-level rows of one part of a result, to compare with the baseline's rows of the same part. */
export interface ReferencePart {
  /** Columns that identify a row. */
  keys: readonly string[];
  /** Numeric columns that must agree. */
  values: readonly string[];
  rows: readonly LooseRow[];
}

/** One timed query: ours (the facade or store method) and, for overview queries, its hand-written baseline. */
export interface BenchCase {
  /** Display name, e.g. `latencyPercentiles(step)`. */
  name: string;
  /** The method it covers: `Analytics#reliability`, `Analytics#getTraceSpans`. */
  method: string;
  kind: 'overview' | 'lookup';
  /** The bound on the median, if it sets one. */
  targetMs: number | undefined;
  /** Overview queries must also stay within this multiple of the baseline. */
  maxRatio: number | undefined;
  /** Called with no arguments by `generic` cases: a facade method the bench has no case for yet. */
  generic?: boolean;
  ours: () => Promise<unknown>;
  /** The baseline: plain SQL straight on `spans`, rows by part (parts run as ours's queries do). */
  plain?: () => Promise<Record<string, LooseRow[]>>;
  /** The baseline computes less than ours (a lower bound on a real baseline's time): ours/plain bounds the true ratio from above. */
  plainIsLowerBound?: boolean;
  /** The store rows behind `ours`, by the same parts (untimed; checks that both compute the same numbers). */
  reference?: () => Promise<Record<string, ReferencePart>>;
}
