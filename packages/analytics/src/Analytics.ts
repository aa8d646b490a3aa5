import { queryAgentRunStats, queryCompoundingCurve, queryStepGroupStats, type AnalyticsFilter, type PriceTable, type Store } from '@telltale/store';
import { resolvePriceTable } from './cost/priceTable.js';
import { compoundingCurve, type CompoundingCurve } from './reliability/compoundingCurve.js';
import { reliabilityReport, type ReliabilitySummary } from './reliability/reliabilityReport.js';

export interface AnalyticsOptions {
  /** The price table for a project (bundled prices plus its overrides). */
  pricesFor?: (projectId: string) => PriceTable;
}

/**
 * The reliability numbers of RELIABILITY-MATH.md for one filter: store
 * queries for the aggregates, pure functions for the math on top.
 */
export class Analytics {
  private readonly pricesFor: (projectId: string) => PriceTable;

  constructor(
    private readonly store: Store,
    opts: AnalyticsOptions = {},
  ) {
    const bundled = resolvePriceTable();
    this.pricesFor = opts.pricesFor ?? (() => bundled);
  }

  async reliability(filter: AnalyticsFilter, opts: { whatIfTarget?: number } = {}): Promise<ReliabilitySummary> {
    const prices = this.pricesFor(filter.projectId);
    const [steps, agents] = await Promise.all([
      queryStepGroupStats(this.store.client, filter, prices),
      queryAgentRunStats(this.store.client, filter, prices),
    ]);
    return reliabilityReport(steps, agents, opts.whatIfTarget);
  }

  async compoundingCurve(filter: AnalyticsFilter): Promise<CompoundingCurve> {
    return compoundingCurve(await queryCompoundingCurve(this.store.client, filter, this.pricesFor(filter.projectId)));
  }
}
