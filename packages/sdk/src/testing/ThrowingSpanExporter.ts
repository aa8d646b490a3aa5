import type { ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';

/** A test double whose every method throws synchronously. */
export class ThrowingSpanExporter implements SpanExporter {
  calls = 0;

  export(_spans: ReadableSpan[], _resultCallback: (result: ExportResult) => void): void {
    this.calls++;
    throw new Error('exporter exploded');
  }

  shutdown(): Promise<void> {
    throw new Error('exporter shutdown exploded');
  }

  forceFlush(): Promise<void> {
    throw new Error('exporter flush exploded');
  }
}
