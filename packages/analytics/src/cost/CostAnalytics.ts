import { type CostGroupBy } from '@telltale/semconv';
import type { AnalyticsFilter, PriceTable, Store, StoreRows } from '@telltale/store';
import { costBreakdown, type CostBreakdown } from './costBreakdown.js';
import { costReport, type CostSummary, type LoopingRunCost } from './costReport.js';
import { bucketRange, costSeries, type CostSeries } from './costSeries.js';
import type { EffectivePrice, PriceResolver } from './PriceResolver.js';

const NS_PER_MS = 1_000_000n;
/** Looping runs' ids go to the cost query in chunks of this many (query parameters stay small for remote servers). */
const LOOPING_IDS_PER_QUERY = 1000;

/**
 * The cost side of the facade (RELIABILITY-MATH "Cost"), priced with each
 * project's table: bundled prices merged with its overrides.
 */
export class CostAnalytics {
  constructor(
    private readonly store: Store,
    private readonly pricesFor: (projectId: string) => Promise<PriceTable>,
    private readonly resolver: PriceResolver,
    /** The ids of the filter's runs with a loop detection; without it, looping runs' cost is unknown (null). */
    private readonly loopingRunIds?: (filter: AnalyticsFilter) => Promise<string[]>,
  ) {}

  /** `looping: false` skips loop detection (callers that read only totals and percentiles); `looping` is null then. */
  async cost(filter: AnalyticsFilter, opts: { looping?: boolean } = {}): Promise<CostSummary> {
    const prices = await this.pricesFor(filter.projectId);
    const [stats, looping] = await Promise.all([
      this.store.metrics.runCostStats(filter, prices),
      opts.looping === false ? Promise.resolve(null) : this.loopingCost(filter, prices),
    ]);
    // a second pass over the spans only when there is unpriced usage to itemise
    const unpriced = stats.unpricedSpans > 0 ? await this.store.metrics.unpricedUsage(filter, prices) : [];
    return costReport(stats, unpriced, looping);
  }

  /** What the filter's looping runs cost, split by whether they failed (cost aggregates over their ids, a chunk at a time). */
  private async loopingCost(filter: AnalyticsFilter, prices: PriceTable): Promise<Required<LoopingRunCost> | null> {
    if (this.loopingRunIds === undefined) return null;
    const ids = await this.loopingRunIds(filter);
    const total: Required<LoopingRunCost> = { runs: 0, costUsd: 0, failedRuns: 0, failedUsd: 0 };
    for (let i = 0; i < ids.length; i += LOOPING_IDS_PER_QUERY) {
      const s = await this.store.metrics.runCostStats(
        { ...filter, runIds: ids.slice(i, i + LOOPING_IDS_PER_QUERY) },
        prices,
      );
      total.runs += s.successRuns + s.incompleteRuns;
      total.costUsd += s.successUsd + s.incompleteUsd;
      total.failedRuns += s.failureRuns;
      total.failedUsd += s.failureUsd;
    }
    return total;
  }

  async costBreakdown(filter: AnalyticsFilter, opts: { groupBy: CostGroupBy }): Promise<CostBreakdown> {
    const prices = await this.pricesFor(filter.projectId);
    return costBreakdown(opts.groupBy, await this.store.metrics.costGroups(filter, prices, opts.groupBy));
  }

  async costSeries(filter: AnalyticsFilter, opts: { intervalSeconds: number }): Promise<CostSeries> {
    const fromMs = Number(filter.fromUnixNano / NS_PER_MS);
    const toMs = Number((filter.toUnixNano + NS_PER_MS - 1n) / NS_PER_MS);
    bucketRange(fromMs, toMs, opts.intervalSeconds); // throws BAD_REQUEST for a window of too many buckets
    const prices = await this.pricesFor(filter.projectId);
    const rows = await this.store.metrics.costSeries(filter, prices, opts.intervalSeconds);
    return costSeries(rows, fromMs, toMs, opts.intervalSeconds);
  }

  prices(projectId: string): Promise<EffectivePrice[]> {
    return this.resolver.list(projectId);
  }

  /** Sets the project's price of one model (replacing the bundled one, if any). */
  async setPrice(projectId: string, price: StoreRows.ModelPriceOverride): Promise<void> {
    try {
      await this.store.prices.upsertModelPrice(projectId, price); // a bad price is a BAD_REQUEST
    } finally {
      this.resolver.invalidate(projectId);
    }
  }

  /** Removes the project's override of one model. */
  async deletePrice(projectId: string, model: string): Promise<void> {
    try {
      await this.store.prices.deleteModelPrice(projectId, model);
    } finally {
      this.resolver.invalidate(projectId);
    }
  }

  /** The runs list, costs priced with the project's table. */
  async listRuns(
    filter: StoreRows.RunFilter,
    page: StoreRows.Page,
  ): Promise<{ runs: StoreRows.RunSummary[]; total: number }> {
    return this.store.runs.listRuns(filter, page, await this.pricesFor(filter.projectId));
  }

  /** Sessions / conversations, costs priced with the project's table. */
  async listSessions(
    filter: StoreRows.SessionFilter,
    page: StoreRows.Page,
  ): Promise<{ sessions: StoreRows.SessionSummary[]; total: number }> {
    return this.store.runs.listSessions(filter, page, await this.pricesFor(filter.projectId));
  }

  async getRun(
    projectId: string,
    runId: string,
  ): Promise<{ run: StoreRows.RunSummary; spans: StoreRows.SpanDetail[] } | undefined> {
    return this.store.runs.getRun(projectId, runId, await this.pricesFor(projectId));
  }

  /** The spans of one trace, each model call priced like a run's. */
  async getTraceSpans(projectId: string, traceId: string): Promise<StoreRows.SpanDetail[]> {
    return this.store.runs.getTraceSpans(projectId, traceId, await this.pricesFor(projectId));
  }
}
