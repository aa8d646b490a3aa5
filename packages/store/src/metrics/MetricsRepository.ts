import type { RunFactsReader } from '../facts/useRunFacts.js';
import type { QueryRunner } from '../QueryRunner.js';
import type { StoreDb } from '../StoreDb.js';
import { queryRunCostStats, queryCostGroups, queryUnpricedUsage, queryCostSeries } from '../analytics/costQueries.js';
import { queryFailureCauses, queryFailureSeries, queryRunCauses } from '../analytics/failureQueries.js';
import { queryLatencyPercentiles, queryLatencySeries } from '../analytics/latencyQueries.js';
import { queryLoopPage } from '../analytics/loopPageQuery.js';
import {
  queryLoopRate,
  queryLoopingRunIds,
  queryRunLoopFlags,
  queryAgentStepMedians,
  queryLoopSteps,
} from '../analytics/loopQueries.js';
import { queryStepGroupStats, queryAgentRunStats, queryCompoundingCurve } from '../analytics/reliabilityQueries.js';
import { queryRunHistogram } from '../analytics/runHistogramQuery.js';
import { queryTailAttribution } from '../analytics/tailAttributionQuery.js';

/** The arguments of a store function after its first. */
type Args<F> = F extends (db: StoreDb, ...rest: infer R) => unknown ? R : never;

/**
 * The metric queries of the analytics (reliability, latency, cost, loops,
 * failures): each takes the caller's filter (with its project id) and the
 * project's price table, and returns rows. Each passes the store's run
 * facts maintainer to its query: a query the run facts can answer
 * finalises the project's pending runs first (useRunFacts calls
 * `runFacts.beforeRead(projectId)`), so it reads what this process stored.
 */
export class MetricsRepository {
  constructor(
    private readonly runner: QueryRunner,
    private readonly runFacts: RunFactsReader,
  ) {}

  runCostStats(...args: Args<typeof queryRunCostStats>): ReturnType<typeof queryRunCostStats> {
    return this.runner.run('metrics.runCostStats', (client) =>
      queryRunCostStats({ client, runFacts: this.runFacts }, ...args),
    );
  }

  costGroups(...args: Args<typeof queryCostGroups>): ReturnType<typeof queryCostGroups> {
    return this.runner.run('metrics.costGroups', (client) =>
      queryCostGroups({ client, runFacts: this.runFacts }, ...args),
    );
  }

  unpricedUsage(...args: Args<typeof queryUnpricedUsage>): ReturnType<typeof queryUnpricedUsage> {
    return this.runner.run('metrics.unpricedUsage', (client) =>
      queryUnpricedUsage({ client, runFacts: this.runFacts }, ...args),
    );
  }

  costSeries(...args: Args<typeof queryCostSeries>): ReturnType<typeof queryCostSeries> {
    return this.runner.run('metrics.costSeries', (client) =>
      queryCostSeries({ client, runFacts: this.runFacts }, ...args),
    );
  }

  failureCauses(...args: Args<typeof queryFailureCauses>): ReturnType<typeof queryFailureCauses> {
    return this.runner.run('metrics.failureCauses', (client) =>
      queryFailureCauses({ client, runFacts: this.runFacts }, ...args),
    );
  }

  failureSeries(...args: Args<typeof queryFailureSeries>): ReturnType<typeof queryFailureSeries> {
    return this.runner.run('metrics.failureSeries', (client) =>
      queryFailureSeries({ client, runFacts: this.runFacts }, ...args),
    );
  }

  runCauses(...args: Args<typeof queryRunCauses>): ReturnType<typeof queryRunCauses> {
    return this.runner.run('metrics.runCauses', (client) =>
      queryRunCauses({ client, runFacts: this.runFacts }, ...args),
    );
  }

  latencyPercentiles(...args: Args<typeof queryLatencyPercentiles>): ReturnType<typeof queryLatencyPercentiles> {
    return this.runner.run('metrics.latencyPercentiles', (client) =>
      queryLatencyPercentiles({ client, runFacts: this.runFacts }, ...args),
    );
  }

  latencySeries(...args: Args<typeof queryLatencySeries>): ReturnType<typeof queryLatencySeries> {
    return this.runner.run('metrics.latencySeries', (client) =>
      queryLatencySeries({ client, runFacts: this.runFacts }, ...args),
    );
  }

  loopPage(...args: Args<typeof queryLoopPage>): ReturnType<typeof queryLoopPage> {
    return this.runner.run('metrics.loopPage', (client) => queryLoopPage({ client, runFacts: this.runFacts }, ...args));
  }

  loopRate(...args: Args<typeof queryLoopRate>): ReturnType<typeof queryLoopRate> {
    return this.runner.run('metrics.loopRate', (client) => queryLoopRate({ client, runFacts: this.runFacts }, ...args));
  }

  loopingRunIds(...args: Args<typeof queryLoopingRunIds>): ReturnType<typeof queryLoopingRunIds> {
    return this.runner.run('metrics.loopingRunIds', (client) =>
      queryLoopingRunIds({ client, runFacts: this.runFacts }, ...args),
    );
  }

  runLoopFlags(...args: Args<typeof queryRunLoopFlags>): ReturnType<typeof queryRunLoopFlags> {
    return this.runner.run('metrics.runLoopFlags', (client) =>
      queryRunLoopFlags({ client, runFacts: this.runFacts }, ...args),
    );
  }

  agentStepMedians(...args: Args<typeof queryAgentStepMedians>): ReturnType<typeof queryAgentStepMedians> {
    return this.runner.run('metrics.agentStepMedians', (client) =>
      queryAgentStepMedians({ client, runFacts: this.runFacts }, ...args),
    );
  }

  loopSteps(...args: Args<typeof queryLoopSteps>): ReturnType<typeof queryLoopSteps> {
    return this.runner.run('metrics.loopSteps', (client) =>
      queryLoopSteps({ client, runFacts: this.runFacts }, ...args),
    );
  }

  stepGroupStats(...args: Args<typeof queryStepGroupStats>): ReturnType<typeof queryStepGroupStats> {
    return this.runner.run('metrics.stepGroupStats', (client) =>
      queryStepGroupStats({ client, runFacts: this.runFacts }, ...args),
    );
  }

  agentRunStats(...args: Args<typeof queryAgentRunStats>): ReturnType<typeof queryAgentRunStats> {
    return this.runner.run('metrics.agentRunStats', (client) =>
      queryAgentRunStats({ client, runFacts: this.runFacts }, ...args),
    );
  }

  compoundingCurve(...args: Args<typeof queryCompoundingCurve>): ReturnType<typeof queryCompoundingCurve> {
    return this.runner.run('metrics.compoundingCurve', (client) =>
      queryCompoundingCurve({ client, runFacts: this.runFacts }, ...args),
    );
  }

  runHistogram(...args: Args<typeof queryRunHistogram>): ReturnType<typeof queryRunHistogram> {
    return this.runner.run('metrics.runHistogram', (client) =>
      queryRunHistogram({ client, runFacts: this.runFacts }, ...args),
    );
  }

  tailAttribution(...args: Args<typeof queryTailAttribution>): ReturnType<typeof queryTailAttribution> {
    return this.runner.run('metrics.tailAttribution', (client) =>
      queryTailAttribution({ client, runFacts: this.runFacts }, ...args),
    );
  }
}
