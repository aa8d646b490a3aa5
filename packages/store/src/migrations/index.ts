import type { Migration } from './Migration.js';
import { m0001Spans } from './0001_spans.js';
import { m0002ModelPrices } from './0002_model_prices.js';
import { m0003RunFacts } from './0003_run_facts.js';
import { m0004ProjectsKeys } from './0004_projects_keys.js';
import { m0005SpansCompactParts } from './0005_spans_compact_parts.js';
import { m0006Alerts } from './0006_alerts.js';
import { m0007Sessions } from './0007_sessions.js';
import { m0008TraceRuns } from './0008_trace_runs.js';
import { m0009LiveAlertEvents } from './0009_live_alert_events.js';
import { m0010SpanContent } from './0010_span_content.js';
import { m0011SpanRollups } from './0011_span_rollups.js';
import { m0012SpanContentWrites } from './0012_span_content_writes.js';
import { m0013RunStepsSmallBlocks } from './0013_run_steps_small_blocks.js';
import { m0014SpanContentSmallGranules } from './0014_span_content_small_granules.js';
import { m0015SpansRunCounts } from './0015_spans_run_counts.js';
import { m0016SpansSmallGranules } from './0016_spans_small_granules.js';
import { m0017SpansIngestedIndex } from './0017_spans_ingested_index.js';
import { m0018SpansWiderMerges } from './0018_spans_wider_merges.js';

/** All migrations in version order. Append only; never edit a released one. */
export const MIGRATIONS: readonly Migration[] = [
  m0001Spans,
  m0002ModelPrices,
  m0003RunFacts,
  m0004ProjectsKeys,
  m0005SpansCompactParts,
  m0006Alerts,
  m0007Sessions,
  m0008TraceRuns,
  m0009LiveAlertEvents,
  m0010SpanContent,
  m0011SpanRollups,
  m0012SpanContentWrites,
  m0013RunStepsSmallBlocks,
  m0014SpanContentSmallGranules,
  m0015SpansRunCounts,
  m0016SpansSmallGranules,
  m0017SpansIngestedIndex,
  m0018SpansWiderMerges,
];
