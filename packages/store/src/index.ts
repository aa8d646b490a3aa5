// The store and its repositories
export { Store } from './Store.js';
export type { StoreConnection, ClientLogSink } from './client.js';
export { CLUSTER_QUERY_SETTINGS } from './client.js';
export { clusterMigrations, CLUSTER_SHARDING_KEY } from './cluster/clusterMigrations.js';
export type { QueryEvent, QueryListener } from './QueryRunner.js';
export type { MetricsRepository } from './metrics/MetricsRepository.js';
export type { AlertsRepository } from './alerts/AlertsRepository.js';
export type { AuthRepository } from './keys/AuthRepository.js';
export type { PricesRepository } from './prices/PricesRepository.js';
export type { RunsRepository } from './runs/RunsRepository.js';
export type { ContentRepository } from './content/ContentRepository.js';
export type { StoredSpanContent } from './content/spanContent.js';
export { MAX_RUN_CONTENT_SPANS } from './content/spanContent.js';
export { DEFAULT_CONTENT_RETENTION_DAYS } from './migrations/0010_span_content.js';
export type { SpanContentRecord, ContentHalf, ContentMessage } from './content/SpanContentRecord.js';

// Spans in, runs and sessions out
export type { SpanRecord } from './spans/SpanRecord.js';
export type { SpanDetail } from './spans/SpanDetail.js';
export type { AttributeValue } from './attributeValue.js';
export type { RunSummary, RunFilter, RunOutcomeValue, Page } from './runs/RunSummary.js';
export type { SessionSummary, SessionFilter } from './runs/SessionSummary.js';

// The metric repository's filter, rows and vocabulary
export type { AnalyticsFilter, PriceTable } from './analytics/AnalyticsFilter.js';
export type { StepGroupStats, AgentRunStats, CurvePoint } from './analytics/reliabilityQueries.js';
export type {
  LatencyGroupRow,
  LatencySeriesRow,
  LatencyQueryOptions,
  LatencySeriesOptions,
} from './analytics/latencyQueries.js';
export {
  LATENCY_GROUP_BYS,
  PERCENTILE_LEVELS,
  EXACT_PERCENTILE_LIMIT,
  DIGEST_RELATIVE_ERROR,
} from './sql/latencySql.js';
export type { LatencyGroupBy } from './sql/latencySql.js';
export { TAIL_LEVEL, MEDIAN_BAND } from './analytics/tailAttributionQuery.js';
export type { TailAttributionRows, TailStepRow, TailTimeKind } from './analytics/tailAttributionQuery.js';
export type { RunCostStats, UnpricedUsage, CostGroupBy, CostGroup, CostBucket } from './analytics/costQueries.js';
export type { RunHistogramMetric, RunHistogramRows } from './analytics/runHistogramQuery.js';
export type {
  AgentStepMedian,
  LoopDetectionRow,
  LoopTotals,
  LoopPage,
  LoopRateBucket,
  RunLoopFlag,
  LoopStepRow,
} from './analytics/loopTypes.js';
export { LOOP_ORDERS } from './analytics/loopPageQuery.js';
export type { LoopOrder, LoopPageOptions } from './analytics/loopPageQuery.js';
export { FAILURE_CAUSES } from './analytics/failureQueries.js';
export type { FailureCause, FailureBucket, RunCause } from './analytics/failureQueries.js';

// Model prices, projects and keys, alerts
export type { ModelPriceOverride, StoredModelPrice } from './prices/modelPrices.js';
export { MAX_SPANS_PER_SECOND_LIMIT } from './projects/projects.js';
export type { Project, NewProject } from './projects/projects.js';
export type { ApiKeyInfo, ApiKeyRecord, NewApiKey } from './keys/apiKeys.js';
export type { StoredAlertRule } from './alerts/alertRules.js';
export type { StoredAlertDestination } from './alerts/alertDestinations.js';
export type { StoredAlertState, AlertHistoryEvent } from './alerts/alertState.js';
export type { StoredNotification, DeliveryAttempt } from './alerts/alertNotifications.js';
export { Lease, DEFAULT_LEASE_TTL_MS, DEFAULT_LEASE_RENEW_MS } from './coord/Lease.js';
export type { LeaseOptions } from './coord/Lease.js';
export type { LeaseCandidate } from './coord/leaseSql.js';
export type { StoredLiveAlertEvent } from './coord/liveAlertEvents.js';
