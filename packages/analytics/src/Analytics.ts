import type { AnalyticsFilter, PriceTable, Store, StoreRows } from '@telltale/store';
import { CostAnalytics } from './cost/CostAnalytics.js';
import type { CostBreakdown } from './cost/costBreakdown.js';
import type { CostSummary } from './cost/costReport.js';
import type { CostSeries } from './cost/costSeries.js';
import { PriceResolver, type EffectivePrice } from './cost/PriceResolver.js';
import { compoundingCurve, type CompoundingCurve } from './reliability/compoundingCurve.js';
import { reliabilityReport, type ReliabilitySummary } from './reliability/reliabilityReport.js';
import { TelltaleError, TelltaleErrorCode, type CostGroupBy, type LatencyGroupBy } from '@telltale/semconv';
import { runHistogram, type RunHistogram } from './runs/runHistogram.js';
import {
  exactLimitOf,
  latencyPercentiles,
  type LatencyPercentiles,
  type LatencyPrecision,
} from './latency/latencyPercentiles.js';
import {
  LATENCY_INTERVALS,
  autoInterval,
  isLatencyInterval,
  latencySeries,
  type LatencyIntervalSeconds,
  type LatencySeries,
} from './latency/latencySeries.js';
import { tailAttribution, type TailAttribution } from './latency/tailAttribution.js';
import type { FailureBreakdown, FailureSeries } from './failures/failureReport.js';
import { LoopAnalytics, type LoopListOptions, type LoopOptions } from './loops/LoopAnalytics.js';
import type { LoopRateSeries } from './loops/loopRateSeries.js';
import type { LoopsReport } from './loops/loopReport.js';

export interface AnalyticsOptions {
  /** A fixed price table per project (tests); default: bundled prices merged with the project's stored overrides. */
  pricesFor?: (projectId: string) => PriceTable | Promise<PriceTable>;
  /** How long a project's merged price table is cached (default 60 s; writes through this instance invalidate it at once). */
  priceCacheTtlMs?: number;
}

/**
 * The reliability numbers of RELIABILITY-MATH.md for one filter: store
 * queries for the aggregates, pure functions for the math on top.
 */
export class Analytics {
  /** The project's price table: await it (overrides live in the store). */
  private readonly pricesFor: (projectId: string) => Promise<PriceTable>;
  private readonly priceResolver: PriceResolver;
  private readonly costs: CostAnalytics;
  private readonly loopAnalytics: LoopAnalytics;

  constructor(
    private readonly store: Store,
    opts: AnalyticsOptions = {},
  ) {
    this.priceResolver = new PriceResolver((projectId) => store.prices.listModelPrices(projectId), {
      ttlMs: opts.priceCacheTtlMs ?? 60_000,
    });
    const fixed = opts.pricesFor;
    this.pricesFor =
      fixed === undefined ? (projectId) => this.priceResolver.table(projectId) : async (projectId) => fixed(projectId);
    this.loopAnalytics = new LoopAnalytics(store, this.pricesFor);
    const loops = this.loopAnalytics;
    this.costs = new CostAnalytics(store, this.pricesFor, this.priceResolver, (filter) => loops.loopingRunIds(filter));
  }

  async reliability(filter: AnalyticsFilter, opts: { whatIfTarget?: number } = {}): Promise<ReliabilitySummary> {
    const prices = await this.pricesFor(filter.projectId);
    const [steps, agents] = await Promise.all([
      this.store.metrics.stepGroupStats(filter, prices),
      this.store.metrics.agentRunStats(filter, prices),
    ]);
    return reliabilityReport(steps, agents, opts.whatIfTarget);
  }

  async compoundingCurve(filter: AnalyticsFilter): Promise<CompoundingCurve> {
    return compoundingCurve(await this.store.metrics.compoundingCurve(filter, await this.pricesFor(filter.projectId)));
  }

  /**
   * Run cost distribution, cost per successful run, wasted cost (failed and looping runs), unpriced usage.
   * `looping: false` skips the loop detection behind the looping runs' cost (it is null then).
   */
  cost(filter: AnalyticsFilter, opts: { looping?: boolean } = {}): Promise<CostSummary> {
    return this.costs.cost(filter, opts);
  }

  costBreakdown(filter: AnalyticsFilter, opts: { groupBy: CostGroupBy }): Promise<CostBreakdown> {
    return this.costs.costBreakdown(filter, opts);
  }

  costSeries(filter: AnalyticsFilter, opts: { intervalSeconds: number }): Promise<CostSeries> {
    return this.costs.costSeries(filter, opts);
  }

  /** Every model the project can price (bundled and overrides). */
  prices(projectId: string): Promise<EffectivePrice[]> {
    return this.costs.prices(projectId);
  }

  setPrice(projectId: string, price: StoreRows.ModelPriceOverride): Promise<void> {
    return this.costs.setPrice(projectId, price);
  }

  deletePrice(projectId: string, model: string): Promise<void> {
    return this.costs.deletePrice(projectId, model);
  }

  /** The runs list with costs priced by the project's table (use instead of store.runs.listRuns). */
  listRuns(
    filter: StoreRows.RunFilter,
    page: StoreRows.Page,
  ): Promise<{ runs: StoreRows.RunSummary[]; total: number }> {
    return this.costs.listRuns(filter, page);
  }

  /** Runs grouped by session / conversation id, costs priced by the project's table. */
  listSessions(
    filter: StoreRows.SessionFilter,
    page: StoreRows.Page,
  ): Promise<{ sessions: StoreRows.SessionSummary[]; total: number }> {
    return this.costs.listSessions(filter, page);
  }

  getRun(
    projectId: string,
    runId: string,
  ): Promise<{ run: StoreRows.RunSummary; spans: StoreRows.SpanDetail[] } | undefined> {
    return this.costs.getRun(projectId, runId);
  }

  getTraceSpans(projectId: string, traceId: string): Promise<StoreRows.SpanDetail[]> {
    return this.costs.getTraceSpans(projectId, traceId);
  }

  /** Duration percentiles per step / tool / model / agent, or of whole runs (RELIABILITY-MATH "Latency"). */
  async latencyPercentiles(
    filter: AnalyticsFilter,
    opts: { groupBy: LatencyGroupBy; precision?: LatencyPrecision },
  ): Promise<LatencyPercentiles> {
    const exactLimit = exactLimitOf(opts.precision);
    const rows = await this.store.metrics.latencyPercentiles(filter, await this.pricesFor(filter.projectId), {
      groupBy: opts.groupBy,
      exactLimit,
    });
    return latencyPercentiles(rows, opts.groupBy, exactLimit);
  }

  /** Percentiles per time bucket for the `topN` largest groups (default 10); the interval defaults to one fitting the window. */
  async latencySeries(
    filter: AnalyticsFilter,
    opts: {
      groupBy: LatencyGroupBy;
      precision?: LatencyPrecision;
      intervalSeconds?: LatencyIntervalSeconds;
      topN?: number;
    },
  ): Promise<LatencySeries> {
    const intervalSeconds = opts.intervalSeconds ?? autoInterval(filter.toUnixNano - filter.fromUnixNano);
    if (!isLatencyInterval(intervalSeconds)) {
      throw new TelltaleError({
        code: TelltaleErrorCode.BAD_REQUEST,
        message: `interval must be one of ${LATENCY_INTERVALS.join(', ')} seconds`,
      });
    }
    const rows = await this.store.metrics.latencySeries(filter, await this.pricesFor(filter.projectId), {
      groupBy: opts.groupBy,
      exactLimit: exactLimitOf(opts.precision),
      intervalSeconds,
      ...(opts.topN === undefined ? {} : { topN: opts.topN }),
    });
    return latencySeries(rows, opts.groupBy, intervalSeconds);
  }

  /** Completed runs by duration or cost in `buckets` equal-width bins (default 30) from the smallest to the largest value. */
  async runHistogram(
    filter: AnalyticsFilter,
    opts: { metric: StoreRows.RunHistogramMetric; buckets?: number },
  ): Promise<RunHistogram> {
    const buckets = opts.buckets ?? 30;
    if (!Number.isInteger(buckets) || buckets < 1 || buckets > 1000) {
      throw new TelltaleError({
        code: TelltaleErrorCode.BAD_REQUEST,
        message: `buckets must be a whole number in [1, 1000], got ${buckets}`,
      });
    }
    const rows = await this.store.metrics.runHistogram(filter, await this.pricesFor(filter.projectId), {
      metric: opts.metric,
      buckets,
    });
    return runHistogram(opts.metric, rows);
  }

  /** Which step's share of run time grows from the median runs to the p99 tail. */
  async tailAttribution(filter: AnalyticsFilter): Promise<TailAttribution> {
    return tailAttribution(await this.store.metrics.tailAttribution(filter, await this.pricesFor(filter.projectId)));
  }

  /** Loop detections with evidence (a page) and totals per kind (RELIABILITY-MATH "Loops and no progress"). */
  loops(filter: AnalyticsFilter, opts: LoopListOptions = {}): Promise<LoopsReport> {
    return this.loopAnalytics.loops(filter, opts);
  }

  /** Runs, looping runs and the loop rate per interval of run start. */
  loopRate(filter: AnalyticsFilter, opts: LoopOptions & { intervalSeconds: number }): Promise<LoopRateSeries> {
    return this.loopAnalytics.loopRate(filter, opts);
  }

  /** Loop kinds and waste of the filter's looping runs (for the runs list, pass `runIds`). */
  runLoopFlags(filter: AnalyticsFilter, opts: LoopOptions = {}): Promise<StoreRows.RunLoopFlag[]> {
    return this.loopAnalytics.runLoopFlags(filter, opts);
  }

  /** Failed runs per primary cause (RELIABILITY-MATH "Failure taxonomy"), with shares. */
  failures(filter: AnalyticsFilter, opts: LoopOptions = {}): Promise<FailureBreakdown> {
    return this.loopAnalytics.failures(filter, opts);
  }

  failureSeries(filter: AnalyticsFilter, opts: LoopOptions & { intervalSeconds: number }): Promise<FailureSeries> {
    return this.loopAnalytics.failureSeries(filter, opts);
  }

  /** The primary cause of each failed run (for the runs list, pass `runIds`). */
  runCauses(filter: AnalyticsFilter, opts: LoopOptions = {}): Promise<StoreRows.RunCause[]> {
    return this.loopAnalytics.runCauses(filter, opts);
  }
}
