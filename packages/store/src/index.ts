export { Store } from './Store.js';
export type { QueryEvent, QueryListener } from './QueryRunner.js';
export type { MetricsRepository } from './metrics/MetricsRepository.js';
export type { AlertsRepository } from './alerts/AlertsRepository.js';
export type { AuthRepository } from './keys/AuthRepository.js';
export type { PricesRepository } from './prices/PricesRepository.js';
export type { RunsRepository } from './runs/RunsRepository.js';
export { createClickHouseClient } from './client.js';
export type { ClientLogEntry, ClientLogSink, StoreConnection } from './client.js';
export { migrate } from './migrate.js';
export { MIGRATIONS } from './migrations/index.js';
export type { Migration } from './migrations/Migration.js';
export type { SpanRecord } from './spans/SpanRecord.js';
export type { SpanDetail } from './spans/SpanDetail.js';
export { encodeSpanRecordBatch } from './spans/arrow/encodeSpanRecordBatch.js';
export { insertSpansJson } from './spans/insertSpansJson.js';
export { spansArrowStream } from './spans/arrow/spansArrowStream.js';
export {
  SPANS_ARROW_SCHEMA_MESSAGE,
  SPANS_ARROW_SCHEMA_VERSION,
  SPANS_ARROW_SCHEMA_FINGERPRINT,
  SPANS_ARROW_COLUMNS,
} from './spans/arrow/spansArrowSchema.js';
export type { RunSummary, RunFilter, RunOutcomeValue, Page } from './runs/RunSummary.js';
export type { SessionSummary, SessionFilter } from './runs/SessionSummary.js';
export { runFilterOf } from './runs/runFilterOf.js';
export {
  encodeAttributeValue,
  decodeAttributeValue,
  decodeAttributes,
  toJsonValue,
  ATTRIBUTE_TYPE,
} from './attributeValue.js';
export type { AttributeValue, AttributeType, JsonValue } from './attributeValue.js';
export { nanosToDateTime64 } from './time.js';
export type { AnalyticsFilter, PriceTable } from './analytics/AnalyticsFilter.js';
export { EMPTY_PRICE_TABLE } from './analytics/AnalyticsFilter.js';
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
export { COST_PERCENTILE_LEVELS } from './analytics/costQueries.js';
export type { RunCostStats, UnpricedUsage, CostGroupBy, CostGroup, CostBucket } from './analytics/costQueries.js';
export { RUN_HISTOGRAM_METRICS } from './analytics/runHistogramQuery.js';
export type { RunHistogramMetric, RunHistogramRows } from './analytics/runHistogramQuery.js';
export type { ModelPriceOverride, StoredModelPrice } from './prices/modelPrices.js';
export { LOOP_KINDS, LOOP_VARIANTS, LOOP_KIND_OF_VARIANT, DEFAULT_LOOP_THRESHOLDS } from './analytics/loopTypes.js';
export type {
  LoopKind,
  LoopVariant,
  LoopThresholds,
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
export { TIMEOUT_ERROR_PATTERN } from './sql/causeSql.js';
export type { FailureCause, FailureBucket, RunCause } from './analytics/failureQueries.js';
export { MAX_SPANS_PER_SECOND_LIMIT } from './projects/projects.js';
export type { Project, NewProject } from './projects/projects.js';
export type { ApiKeyInfo, ApiKeyRecord, NewApiKey } from './keys/apiKeys.js';
export { dataDirHolder } from './dataDirHolder.js';
export type { StoredAlertRule } from './alerts/alertRules.js';
export type { StoredAlertDestination } from './alerts/alertDestinations.js';
export type { StoredAlertState, AlertHistoryEvent } from './alerts/alertState.js';
export type { StoredNotification, DeliveryAttempt } from './alerts/alertNotifications.js';
