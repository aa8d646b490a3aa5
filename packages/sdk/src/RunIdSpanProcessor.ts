import type { Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { TelltaleAttr } from '@telltale/semconv';
import { guard } from './internal/reportFault.js';
import { getRunId } from './internal/runContext.js';

/**
 * Stamps `telltale.run.id` on every span started inside a `run()` — including
 * spans of other instrumentation (HTTP clients, OpenInference, Vercel AI SDK…).
 * Providers made by `init` / `createTracerProvider` include it; with your own
 * OTel setup, add it to your provider's `spanProcessors`.
 */
export class RunIdSpanProcessor implements SpanProcessor {
  onStart(span: Span, parentContext: Context): void {
    guard('processor', () => {
      const runId = getRunId(parentContext);
      if (runId !== undefined && span.attributes[TelltaleAttr.runId] === undefined) {
        span.setAttribute(TelltaleAttr.runId, runId);
      }
    });
  }

  onEnd(_span: ReadableSpan): void {
    // Nothing to do: the id is stamped at start.
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}
