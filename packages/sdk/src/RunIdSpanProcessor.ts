import type { Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { TelltaleAttr } from '@telltale/semconv';
import { reportFault } from './internal/reportFault.js';
import { getRunIdFromBaggage } from './internal/runBaggage.js';
import { getRunId } from './internal/runContext.js';

/**
 * Stamps `telltale.run.id` on every span started inside a `run()` — including
 * spans of other instrumentation (HTTP clients, OpenInference, Vercel AI SDK…)
 * — and on every span of another service whose context carries the run id in
 * W3C baggage (the `telltale.run.id` entry `run()` sets, propagated with the
 * request). Providers made by `init` / `createTracerProvider` include it;
 * with your own OTel setup, add it to your provider's `spanProcessors`.
 * A span that already has a run id keeps it.
 */
export class RunIdSpanProcessor implements SpanProcessor {
  onStart(span: Span, parentContext: Context): void {
    // runs for every span of the process: no closure, and the SDK's own spans (id already set) return at once
    try {
      if (span.attributes[TelltaleAttr.runId] !== undefined) return;
      const runId = getRunId(parentContext) ?? getRunIdFromBaggage(parentContext);
      if (runId !== undefined) span.setAttribute(TelltaleAttr.runId, runId);
    } catch (err) {
      reportFault('processor', err);
    }
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
