// The store, its connection and its repositories (store.metrics, store.runs …)
export { Store } from './Store.js';
export type { StoreConnection, ClientLogSink } from './client.js';
export type { QueryEvent, QueryListener } from './QueryRunner.js';
export type { MetricsRepository } from './metrics/MetricsRepository.js';
export type { RunsRepository } from './runs/RunsRepository.js';
export type { PricesRepository } from './prices/PricesRepository.js';
export type { AuthRepository } from './keys/AuthRepository.js';
export type { AlertsRepository } from './alerts/AlertsRepository.js';
export type { Lease } from './coord/Lease.js';
export { PeriodicCatchUp, type CatchUpScan, type PeriodicCatchUpOptions } from './facts/PeriodicCatchUp.js';
export type { EngineMemory } from './engine/engineMemory.js';
export type { ContentRepository } from './content/ContentRepository.js';
export { MAX_RUN_CONTENT_SPAN_IDS, MAX_RUN_CONTENT_SPANS } from './content/spanContent.js';
export { DEFAULT_CONTENT_RETENTION_DAYS } from './migrations/0010_span_content.js';

// What goes in: spans, and the filter and prices every metric query takes
export type { SpanRecord } from './spans/SpanRecord.js';
export type { AnalyticsFilter, PriceTable } from './analytics/AnalyticsFilter.js';

// What comes out: every row, page, option and record type, by name (StoreRows.RunSummary …)
export type * as StoreRows from './rows.js';
