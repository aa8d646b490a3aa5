/**
 * The shapes the store's repositories take and return, by name: runs,
 * sessions and spans; the metric query rows, pages and options; prices,
 * projects and keys; alert records; leases and live alert events. The index
 * exports them as one namespace: `StoreRows.RunSummary`, `StoreRows.LoopPage` …
 */
export type { SpanDetail } from './spans/SpanDetail.js';
export type { AttributeValue } from './attributeValue.js';
export type { RunSummary, RunFilter, RunOutcomeValue, Page } from './runs/RunSummary.js';
export type { SessionSummary, SessionFilter } from './runs/SessionSummary.js';
export type { DeletedRun } from './runs/deleteRun.js';

export type { StepGroupStats, AgentRunStats, CurvePoint } from './analytics/reliabilityQueries.js';
export type {
  LatencyGroupRow,
  LatencySeriesRow,
  LatencyQueryOptions,
  LatencySeriesOptions,
} from './analytics/latencyQueries.js';
export type { TailAttributionRows, TailStepRow, TailTimeKind } from './analytics/tailAttributionQuery.js';
export type { RunCostStats, UnpricedUsage, CostGroup, CostBucket } from './analytics/costQueries.js';
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
export type { LoopPageOptions } from './analytics/loopPageQuery.js';
export type { FailureBucket, RunCause } from './analytics/failureQueries.js';

export type { ModelPriceOverride, StoredModelPrice } from './prices/modelPrices.js';
export type { Project, NewProject } from './projects/projects.js';
export type { ApiKeyInfo, ApiKeyRecord, NewApiKey } from './keys/apiKeys.js';

export type { StoredAlertRule } from './alerts/alertRules.js';
export type { StoredAlertDestination } from './alerts/alertDestinations.js';
export type { StoredAlertState, AlertHistoryEvent } from './alerts/alertState.js';
export type { StoredNotification, DeliveryAttempt } from './alerts/alertNotifications.js';

export type { LeaseOptions } from './coord/Lease.js';
export type { LeaseCandidate } from './coord/leaseSql.js';
export type { StoredLiveAlertEvent } from './coord/liveAlertEvents.js';
export type { StoredSpanContent } from './content/spanContent.js';
export type { SpanContentRecord, ContentHalf, ContentMessage } from './content/SpanContentRecord.js';
