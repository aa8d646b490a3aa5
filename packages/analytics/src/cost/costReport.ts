import type { StoreRows } from '@telltale/store';

/** Cost of the runs a loop detection flagged (RELIABILITY-MATH "Loops"), as the loop queries report it. */
export interface LoopingRunCost {
  /** Looping runs that did not fail (failed ones are already wasted as failures). */
  runs: number;
  costUsd: number;
  /** Looping runs that failed (primary cause `loop`) and their cost, already part of `failedRunsUsd`. */
  failedRuns?: number;
  failedUsd?: number;
}

/** RELIABILITY-MATH "Cost" for one filter. All amounts in USD. */
export interface CostSummary {
  runs: { total: number; success: number; failure: number; incomplete: number; completed: number };
  /** Every kept run, incomplete ones included. */
  totalUsd: number;
  /** Distribution of run cost over completed runs (exact, nearest rank); 0 without completed runs. */
  perRun: { meanUsd: number; p50Usd: number; p95Usd: number; p99Usd: number; maxUsd: number };
  /** Cost of successful runs / successful runs; null when none succeeded. */
  perSuccessfulRunUsd: number | null;
  /** Total cost / successful runs: what one success costs, failures included; null when none succeeded. */
  perSuccessUsd: number | null;
  wasted: {
    failedRunsUsd: number;
    /** Non-failed runs with a loop detection; null while loop detection is not available. */
    loopingRunsUsd: number | null;
    /** Each run counted once: failed or looping. */
    totalUsd: number;
    /** Of totalUsd (0 when nothing was spent). */
    share: number;
  };
  /**
   * Every run with a loop detection: those that did not fail (runs, costUsd = wasted.loopingRunsUsd) and
   * those that failed (failedRuns, failedUsd); null while loop detection is not available.
   */
  looping: Required<LoopingRunCost> | null;
  tokens: { input: number; cachedInput: number; output: number };
  /** Usage that no price covers (counted as $0): add a price for these models. */
  unpriced: { spans: number; byModel: StoreRows.UnpricedUsage[] };
}

/** Pure: the summary from the run cost aggregates (and loop costs when known). */
export function costReport(
  stats: StoreRows.RunCostStats,
  unpriced: readonly StoreRows.UnpricedUsage[],
  looping: LoopingRunCost | null = null,
): CostSummary {
  const loopingUsd = looping === null ? null : looping.costUsd;
  const wastedTotal = stats.failureUsd + (loopingUsd ?? 0);
  return {
    runs: {
      total: stats.runs,
      success: stats.successRuns,
      failure: stats.failureRuns,
      incomplete: stats.incompleteRuns,
      completed: stats.successRuns + stats.failureRuns,
    },
    totalUsd: stats.totalUsd,
    perRun: {
      meanUsd: stats.meanUsd,
      p50Usd: stats.p50Usd,
      p95Usd: stats.p95Usd,
      p99Usd: stats.p99Usd,
      maxUsd: stats.maxUsd,
    },
    perSuccessfulRunUsd: stats.successRuns === 0 ? null : stats.successUsd / stats.successRuns,
    perSuccessUsd: stats.successRuns === 0 ? null : stats.totalUsd / stats.successRuns,
    wasted: {
      failedRunsUsd: stats.failureUsd,
      loopingRunsUsd: loopingUsd,
      totalUsd: wastedTotal,
      share: stats.totalUsd > 0 ? wastedTotal / stats.totalUsd : 0,
    },
    looping: looping === null ? null : { failedRuns: 0, failedUsd: 0, ...looping },
    tokens: { input: stats.inputTokens, cachedInput: stats.cachedInputTokens, output: stats.outputTokens },
    unpriced: { spans: stats.unpricedSpans, byModel: [...unpriced] },
  };
}
