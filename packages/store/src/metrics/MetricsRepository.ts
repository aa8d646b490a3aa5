import type { StoreDb } from '../StoreDb.js';
import { queryRunCostStats, queryCostGroups, queryUnpricedUsage, queryCostSeries } from '../analytics/costQueries.js';
import { queryFailureCauses, queryFailureSeries, queryRunCauses } from '../analytics/failureQueries.js';
import { queryLatencyPercentiles, queryLatencySeries } from '../analytics/latencyQueries.js';
import { queryLoopPage } from '../analytics/loopPageQuery.js';
import { queryLoopRate, queryLoopingRunIds, queryRunLoopFlags, queryAgentStepMedians, queryLoopSteps } from '../analytics/loopQueries.js';
import { queryStepGroupStats, queryAgentRunStats, queryCompoundingCurve } from '../analytics/reliabilityQueries.js';
import { queryRunHistogram } from '../analytics/runHistogramQuery.js';
import { queryTailAttribution } from '../analytics/tailAttributionQuery.js';

/** The arguments of a store query after its StoreDb. */
type Args<F> = F extends (db: StoreDb, ...rest: infer R) => unknown ? R : never;

/**
 * The metric queries of the analytics (reliability, latency, cost, loops,
 * failures): each takes the caller's filter (with its project id) and the
 * project's price table, and returns rows. A query that the run facts can
 * answer finalises the project's pending runs first (useRunFacts, through
 * this repository's StoreDb), so it reads what this process has stored.
 */
export class MetricsRepository {
  constructor(private readonly db: StoreDb) {}

  runCostStats(...args: Args<typeof queryRunCostStats>): ReturnType<typeof queryRunCostStats> {
    return queryRunCostStats(this.db, ...args);
  }

  costGroups(...args: Args<typeof queryCostGroups>): ReturnType<typeof queryCostGroups> {
    return queryCostGroups(this.db, ...args);
  }

  unpricedUsage(...args: Args<typeof queryUnpricedUsage>): ReturnType<typeof queryUnpricedUsage> {
    return queryUnpricedUsage(this.db, ...args);
  }

  costSeries(...args: Args<typeof queryCostSeries>): ReturnType<typeof queryCostSeries> {
    return queryCostSeries(this.db, ...args);
  }

  failureCauses(...args: Args<typeof queryFailureCauses>): ReturnType<typeof queryFailureCauses> {
    return queryFailureCauses(this.db, ...args);
  }

  failureSeries(...args: Args<typeof queryFailureSeries>): ReturnType<typeof queryFailureSeries> {
    return queryFailureSeries(this.db, ...args);
  }

  runCauses(...args: Args<typeof queryRunCauses>): ReturnType<typeof queryRunCauses> {
    return queryRunCauses(this.db, ...args);
  }

  latencyPercentiles(...args: Args<typeof queryLatencyPercentiles>): ReturnType<typeof queryLatencyPercentiles> {
    return queryLatencyPercentiles(this.db, ...args);
  }

  latencySeries(...args: Args<typeof queryLatencySeries>): ReturnType<typeof queryLatencySeries> {
    return queryLatencySeries(this.db, ...args);
  }

  loopPage(...args: Args<typeof queryLoopPage>): ReturnType<typeof queryLoopPage> {
    return queryLoopPage(this.db, ...args);
  }

  loopRate(...args: Args<typeof queryLoopRate>): ReturnType<typeof queryLoopRate> {
    return queryLoopRate(this.db, ...args);
  }

  loopingRunIds(...args: Args<typeof queryLoopingRunIds>): ReturnType<typeof queryLoopingRunIds> {
    return queryLoopingRunIds(this.db, ...args);
  }

  runLoopFlags(...args: Args<typeof queryRunLoopFlags>): ReturnType<typeof queryRunLoopFlags> {
    return queryRunLoopFlags(this.db, ...args);
  }

  agentStepMedians(...args: Args<typeof queryAgentStepMedians>): ReturnType<typeof queryAgentStepMedians> {
    return queryAgentStepMedians(this.db, ...args);
  }

  loopSteps(...args: Args<typeof queryLoopSteps>): ReturnType<typeof queryLoopSteps> {
    return queryLoopSteps(this.db, ...args);
  }

  stepGroupStats(...args: Args<typeof queryStepGroupStats>): ReturnType<typeof queryStepGroupStats> {
    return queryStepGroupStats(this.db, ...args);
  }

  agentRunStats(...args: Args<typeof queryAgentRunStats>): ReturnType<typeof queryAgentRunStats> {
    return queryAgentRunStats(this.db, ...args);
  }

  compoundingCurve(...args: Args<typeof queryCompoundingCurve>): ReturnType<typeof queryCompoundingCurve> {
    return queryCompoundingCurve(this.db, ...args);
  }

  runHistogram(...args: Args<typeof queryRunHistogram>): ReturnType<typeof queryRunHistogram> {
    return queryRunHistogram(this.db, ...args);
  }

  tailAttribution(...args: Args<typeof queryTailAttribution>): ReturnType<typeof queryTailAttribution> {
    return queryTailAttribution(this.db, ...args);
  }
}
