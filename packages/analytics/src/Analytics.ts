import { queryAgentRunStats, queryCompoundingCurve, queryStepGroupStats, type AnalyticsFilter, type PriceTable, type Store } from '@telltale/store';
import { resolvePriceTable } from './cost/priceTable.js';
import { compoundingCurve, type CompoundingCurve } from './reliability/compoundingCurve.js';
import { reliabilityReport, type ReliabilitySummary } from './reliability/reliabilityReport.js';
import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';
import { queryLatencyPercentiles, queryLatencySeries, queryTailAttribution, type LatencyGroupBy } from '@telltale/store';
import { latencyPercentiles, type LatencyPercentiles } from './latency/latencyPercentiles.js';
import { LATENCY_INTERVALS, autoInterval, isLatencyInterval, latencySeries, type LatencyIntervalSeconds, type LatencySeries } from './latency/latencySeries.js';
import { tailAttribution, type TailAttribution } from './latency/tailAttribution.js';

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

  /** Duration percentiles per step / tool / model / agent, or of whole runs (RELIABILITY-MATH "Latency"). */
  async latencyPercentiles(filter: AnalyticsFilter, opts: { groupBy: LatencyGroupBy }): Promise<LatencyPercentiles> {
    const rows = await queryLatencyPercentiles(this.store.client, filter, this.pricesFor(filter.projectId), { groupBy: opts.groupBy });
    return latencyPercentiles(rows, opts.groupBy);
  }

  /** Percentiles per time bucket for the `topN` largest groups (default 10); the interval defaults to one fitting the window. */
  async latencySeries(
    filter: AnalyticsFilter,
    opts: { groupBy: LatencyGroupBy; intervalSeconds?: LatencyIntervalSeconds; topN?: number },
  ): Promise<LatencySeries> {
    const intervalSeconds = opts.intervalSeconds ?? autoInterval(filter.toUnixNano - filter.fromUnixNano);
    if (!isLatencyInterval(intervalSeconds)) {
      throw new TelltaleError({ code: TelltaleErrorCode.BAD_REQUEST, message: `interval must be one of ${LATENCY_INTERVALS.join(', ')} seconds` });
    }
    const rows = await queryLatencySeries(this.store.client, filter, this.pricesFor(filter.projectId), {
      groupBy: opts.groupBy,
      intervalSeconds,
      ...(opts.topN === undefined ? {} : { topN: opts.topN }),
    });
    return latencySeries(rows, opts.groupBy, intervalSeconds);
  }

  /** Which step's share of run time grows from the median runs to the p99 tail. */
  async tailAttribution(filter: AnalyticsFilter): Promise<TailAttribution> {
    return tailAttribution(await queryTailAttribution(this.store.client, filter, this.pricesFor(filter.projectId)));
  }
}
