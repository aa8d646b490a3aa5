import type { AnalyticsFilter, PriceTable, Store, StoreRows } from '@telltale/store';
import {
  TelltaleError,
  TelltaleErrorCode,
  type LoopKind,
  type LoopThresholds,
  type LoopOrder,
} from '@telltale/semconv';
import {
  failureBreakdown,
  failureSeries,
  type FailureBreakdown,
  type FailureSeries,
} from '../failures/failureReport.js';
import { loopRateSeries, type LoopRateSeries } from './loopRateSeries.js';
import { loopReport, type LoopsReport } from './loopReport.js';
import { resolveLoopThresholds } from './LoopThresholds.js';

export interface LoopOptions {
  /** Overrides of DEFAULT_LOOP_THRESHOLDS. */
  thresholds?: Partial<LoopThresholds>;
}

export interface LoopListOptions extends LoopOptions {
  /** Default 50, at most 500. */
  limit?: number;
  offset?: number;
  kind?: LoopKind;
  orderBy?: LoopOrder;
}

const MAX_LIMIT = 500;

function wholeNumber(name: string, v: number, min: number, max: number): number {
  if (!Number.isInteger(v) || v < min || v > max)
    throw new TelltaleError({
      code: TelltaleErrorCode.BAD_REQUEST,
      message: `${name} must be a whole number in [${min}, ${max}], got ${v}`,
    });
  return v;
}

/**
 * Loops and failure causes (RELIABILITY-MATH "Loops and no progress",
 * "Failure taxonomy") behind the Analytics facade. A filter restricted to
 * some runs (`runIds`) takes its runaway limits from the agents' medians
 * over the whole window, so a run's flags do not depend on the page it is on.
 */
export class LoopAnalytics {
  constructor(
    private readonly store: Store,
    private readonly pricesFor: (projectId: string) => Promise<PriceTable>,
  ) {}

  private async context(
    filter: AnalyticsFilter,
    opts: LoopOptions,
  ): Promise<{ prices: PriceTable; t: LoopThresholds; medians: StoreRows.AgentStepMedian[] | undefined }> {
    const t = resolveLoopThresholds(opts.thresholds);
    const prices = await this.pricesFor(filter.projectId);
    const restricted = (filter.runIds?.length ?? 0) > 0;
    const medians = restricted
      ? await this.store.metrics.agentStepMedians({ ...filter, runIds: [] }, prices)
      : undefined;
    return { prices, t, medians };
  }

  /** A page of detections with evidence, and totals per kind. */
  async loops(filter: AnalyticsFilter, opts: LoopListOptions = {}): Promise<LoopsReport> {
    const limit = wholeNumber('limit', opts.limit ?? 50, 1, MAX_LIMIT);
    const offset = wholeNumber('offset', opts.offset ?? 0, 0, Number.MAX_SAFE_INTEGER);
    const { prices, t, medians } = await this.context(filter, opts);
    const page = await this.store.metrics.loopPage(filter, prices, t, {
      limit,
      offset,
      ...(opts.kind === undefined ? {} : { kind: opts.kind }),
      ...(opts.orderBy === undefined ? {} : { orderBy: opts.orderBy }),
      ...(medians === undefined ? {} : { medians }),
    });
    const steps =
      page.detections.length === 0
        ? []
        : await this.store.metrics.loopSteps(pageRunsFilter(filter, page.detections), prices);
    return loopReport(page, steps, t, { limit, offset });
  }

  /** Runs, looping runs and their rate per interval of run start. */
  async loopRate(filter: AnalyticsFilter, opts: LoopOptions & { intervalSeconds: number }): Promise<LoopRateSeries> {
    const intervalSeconds = wholeNumber('intervalSeconds', opts.intervalSeconds, 1, 366 * 86_400);
    const { prices, t, medians } = await this.context(filter, opts);
    return loopRateSeries(
      await this.store.metrics.loopRate(filter, prices, t, intervalSeconds, medians),
      intervalSeconds,
      t,
    );
  }

  /** The filter's looping runs with their kinds and waste (for the runs list: pass `runIds`). */
  async runLoopFlags(filter: AnalyticsFilter, opts: LoopOptions = {}): Promise<StoreRows.RunLoopFlag[]> {
    const { prices, t, medians } = await this.context(filter, opts);
    return this.store.metrics.runLoopFlags(filter, prices, t, medians);
  }

  /** The ids of the filter's looping runs (the runs of runLoopFlags, without their kinds and waste: much cheaper). */
  async loopingRunIds(filter: AnalyticsFilter, opts: LoopOptions = {}): Promise<string[]> {
    const { prices, t, medians } = await this.context(filter, opts);
    return this.store.metrics.loopingRunIds(filter, prices, t, medians);
  }

  /** Failed runs per primary cause, with shares. */
  async failures(filter: AnalyticsFilter, opts: LoopOptions = {}): Promise<FailureBreakdown> {
    const { prices, t, medians } = await this.context(filter, opts);
    return failureBreakdown(await this.store.metrics.failureCauses(filter, prices, t, medians));
  }

  async failureSeries(
    filter: AnalyticsFilter,
    opts: LoopOptions & { intervalSeconds: number },
  ): Promise<FailureSeries> {
    const intervalSeconds = wholeNumber('intervalSeconds', opts.intervalSeconds, 1, 366 * 86_400);
    const { prices, t, medians } = await this.context(filter, opts);
    return failureSeries(
      await this.store.metrics.failureSeries(filter, prices, t, intervalSeconds, medians),
      intervalSeconds,
    );
  }

  /** The primary cause of each failed run of the filter (for the runs list: pass `runIds`). */
  async runCauses(filter: AnalyticsFilter, opts: LoopOptions = {}): Promise<StoreRows.RunCause[]> {
    const { prices, t, medians } = await this.context(filter, opts);
    return this.store.metrics.runCauses(filter, prices, t, medians);
  }
}

/**
 * The filter of a page's runs' steps: their ids, and the window from the
 * earliest of their starts (a run starts with its earliest span), so the
 * spans read are those of the hours the page's runs lie in, not the whole
 * window's.
 */
function pageRunsFilter(filter: AnalyticsFilter, detections: readonly StoreRows.LoopDetectionRow[]): AnalyticsFilter {
  let fromUnixNano = filter.toUnixNano;
  for (const d of detections) {
    const start = BigInt(d.runStartUnixNano);
    if (start < fromUnixNano) fromUnixNano = start;
  }
  if (fromUnixNano < filter.fromUnixNano) fromUnixNano = filter.fromUnixNano;
  return { ...filter, runIds: [...new Set(detections.map((d) => d.runId))], fromUnixNano };
}
