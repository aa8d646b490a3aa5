import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';
import {
  deleteModelPrice,
  queryCostGroups,
  queryCostSeries,
  queryRunCostStats,
  queryUnpricedUsage,
  upsertModelPrice,
  type AnalyticsFilter,
  type CostGroupBy,
  type ModelPriceOverride,
  type Page,
  type PriceTable,
  type RunFilter,
  type SessionFilter,
  type SessionSummary,
  type RunSummary,
  type SpanDetail,
  type Store,
} from '@telltale/store';
import { costBreakdown, type CostBreakdown } from './costBreakdown.js';
import { costReport, type CostSummary } from './costReport.js';
import { bucketRange, costSeries, type CostSeries } from './costSeries.js';
import type { EffectivePrice, PriceResolver } from './PriceResolver.js';

const NS_PER_MS = 1_000_000n;

/** Request-shaped mistakes (RangeError from validation) become BAD_REQUEST. */
function asBadRequest(err: unknown): never {
  if (err instanceof RangeError) throw new TelltaleError({ code: TelltaleErrorCode.BAD_REQUEST, message: err.message, cause: err });
  throw err;
}

/**
 * The cost side of the facade (RELIABILITY-MATH "Cost"), priced with each
 * project's table: bundled prices merged with its overrides.
 */
export class CostAnalytics {
  constructor(
    private readonly store: Store,
    private readonly pricesFor: (projectId: string) => Promise<PriceTable>,
    private readonly resolver: PriceResolver,
  ) {}

  async cost(filter: AnalyticsFilter): Promise<CostSummary> {
    const prices = await this.pricesFor(filter.projectId);
    const stats = await queryRunCostStats(this.store.client, filter, prices);
    // a second pass over the spans only when there is unpriced usage to itemise
    const unpriced = stats.unpricedSpans > 0 ? await queryUnpricedUsage(this.store.client, filter, prices) : [];
    // Looping runs' cost joins `wasted` once loop detection is queryable (see costReport's `looping`).
    return costReport(stats, unpriced, null);
  }

  async costBreakdown(filter: AnalyticsFilter, opts: { groupBy: CostGroupBy }): Promise<CostBreakdown> {
    const prices = await this.pricesFor(filter.projectId);
    return costBreakdown(opts.groupBy, await queryCostGroups(this.store.client, filter, prices, opts.groupBy));
  }

  async costSeries(filter: AnalyticsFilter, opts: { intervalSeconds: number }): Promise<CostSeries> {
    const fromMs = Number(filter.fromUnixNano / NS_PER_MS);
    const toMs = Number((filter.toUnixNano + NS_PER_MS - 1n) / NS_PER_MS);
    try {
      bucketRange(fromMs, toMs, opts.intervalSeconds);
    } catch (err) {
      asBadRequest(err);
    }
    const prices = await this.pricesFor(filter.projectId);
    const rows = await queryCostSeries(this.store.client, filter, prices, opts.intervalSeconds);
    return costSeries(rows, fromMs, toMs, opts.intervalSeconds);
  }

  prices(projectId: string): Promise<EffectivePrice[]> {
    return this.resolver.list(projectId);
  }

  /** Sets the project's price of one model (replacing the bundled one, if any). */
  async setPrice(projectId: string, price: ModelPriceOverride): Promise<void> {
    try {
      await upsertModelPrice(this.store.client, projectId, price);
    } catch (err) {
      asBadRequest(err);
    } finally {
      this.resolver.invalidate(projectId);
    }
  }

  /** Removes the project's override of one model. */
  async deletePrice(projectId: string, model: string): Promise<void> {
    try {
      await deleteModelPrice(this.store.client, projectId, model);
    } finally {
      this.resolver.invalidate(projectId);
    }
  }

  /** The runs list, costs priced with the project's table. */
  async listRuns(filter: RunFilter, page: Page): Promise<{ runs: RunSummary[]; total: number }> {
    return this.store.listRuns(filter, page, await this.pricesFor(filter.projectId));
  }

  /** Sessions / conversations, costs priced with the project's table. */
  async listSessions(filter: SessionFilter, page: Page): Promise<{ sessions: SessionSummary[]; total: number }> {
    return this.store.listSessions(filter, page, await this.pricesFor(filter.projectId));
  }

  async getRun(projectId: string, runId: string): Promise<{ run: RunSummary; spans: SpanDetail[] } | undefined> {
    return this.store.getRun(projectId, runId, await this.pricesFor(projectId));
  }
}
