import { counters } from './internal/stats.js';

/** What the SDK did with the spans it recorded, since the process started. */
export interface TelltaleStats {
  /** Spans waiting in the batch queue now (bounded by `batch.maxQueueSize`, default 2048). */
  queuedSpans: number;
  /** Spans in an export that has not ended yet (with the collector down, the exporter retries them for up to 10 s). */
  exportingSpans: number;
  /** Spans dropped because the queue was full (the collector is down or slow). */
  droppedSpans: number;
  /** Spans whose export succeeded. */
  exportedSpans: number;
  /** Spans whose export failed (each failure also goes to the error handler). */
  failedSpans: number;
}

/**
 * Counters of the SDK's export path, summed over every provider and
 * processor the SDK created (`init`, `createTracerProvider`,
 * `telltaleSpanProcessors`). Cheap: read it from a health check or a metric.
 */
export function telltaleStats(): TelltaleStats {
  return {
    queuedSpans: counters.queued,
    exportingSpans: counters.exporting,
    droppedSpans: counters.dropped,
    exportedSpans: counters.exported,
    failedSpans: counters.failed,
  };
}
