import type { Context } from '@opentelemetry/api';
import { TraceFlags } from '@opentelemetry/api';
import { getNumberFromEnv } from '@opentelemetry/core';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { BufferConfig, ReadableSpan, Span, SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ReportingExporter } from './ReportingExporter.js';
import { reportFault } from './reportFault.js';
import { counters } from './stats.js';

/**
 * OpenTelemetry's BatchSpanProcessor (bounded queue, never blocks the agent)
 * with the drops counted: it mirrors the queue's length (spans accepted minus
 * spans handed to the exporter), so a span ending on a full queue is counted
 * in `telltaleStats().droppedSpans`, and the first drop of each burst goes to
 * the error handler.
 */
export class CountingBatchSpanProcessor implements SpanProcessor {
  private readonly inner: BatchSpanProcessor;
  private readonly maxQueueSize: number;
  private queued = 0;
  private dropping = false;
  private closed = false;

  constructor(exporter: SpanExporter, config?: BufferConfig) {
    this.maxQueueSize = config?.maxQueueSize ?? getNumberFromEnv('OTEL_BSP_MAX_QUEUE_SIZE') ?? 2048;
    const reporting = new ReportingExporter(exporter, (handedOver) => {
      this.queued -= handedOver;
      counters.queued -= handedOver;
    });
    this.inner = new BatchSpanProcessor(reporting, config);
  }

  onStart(span: Span, parentContext: Context): void {
    this.inner.onStart(span, parentContext);
  }

  onEnd(span: ReadableSpan): void {
    if (!this.closed && (span.spanContext().traceFlags & TraceFlags.SAMPLED) !== 0) this.count();
    this.inner.onEnd(span);
  }

  private count(): void {
    if (this.queued < this.maxQueueSize) {
      this.queued++;
      counters.queued++;
      this.dropping = false;
      return;
    }
    counters.dropped++;
    if (this.dropping) return;
    this.dropping = true;
    reportFault(
      'queue',
      new Error(`span queue full (${this.maxQueueSize}): dropping spans, ${counters.dropped} dropped so far`),
    );
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush();
  }

  shutdown(): Promise<void> {
    this.closed = true;
    return this.inner.shutdown();
  }
}
