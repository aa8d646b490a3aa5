import { ExportResultCode } from '@opentelemetry/core';
import type { ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { counters } from './stats.js';
import { reportFault } from './reportFault.js';

/**
 * Wraps an exporter so failed exports reach the SDK's fault handler and an
 * exporter that throws becomes a failed result instead of an exception.
 */
export class ReportingExporter implements SpanExporter {
  constructor(
    private readonly inner: SpanExporter,
    /** Told how many spans each export takes off the queue. */
    private readonly onHandOver?: (spans: number) => void,
  ) {}

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    let called = false;
    this.onHandOver?.(spans.length);
    counters.exporting += spans.length;
    const done = (result: ExportResult): void => {
      if (called) return;
      called = true;
      counters.exporting -= spans.length;
      if (result.code === ExportResultCode.SUCCESS) counters.exported += spans.length;
      else counters.failed += spans.length;
      if (result.code !== ExportResultCode.SUCCESS) {
        reportFault('export', result.error ?? new Error(`export of ${spans.length} spans failed`));
      }
      resultCallback(result);
    };
    try {
      this.inner.export(spans, done);
    } catch (err) {
      done({ code: ExportResultCode.FAILED, error: err instanceof Error ? err : new Error(String(err)) });
    }
  }

  async shutdown(): Promise<void> {
    try {
      await this.inner.shutdown();
    } catch (err) {
      reportFault('shutdown', err);
    }
  }

  async forceFlush(): Promise<void> {
    try {
      await this.inner.forceFlush?.();
    } catch (err) {
      reportFault('export', err);
    }
  }
}
