import type { TracerProvider } from '@opentelemetry/api';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import type { BufferConfig, SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createTelltaleExporter } from './createTelltaleExporter.js';
import type { TelltaleExporterOptions } from './createTelltaleExporter.js';
import { CountingBatchSpanProcessor } from './internal/CountingBatchSpanProcessor.js';
import { telltaleResource } from './internal/telltaleResource.js';
import { RunIdSpanProcessor } from './RunIdSpanProcessor.js';

/** A tracer provider you own: flush it, and shut it down when done. */
export interface TelltaleTracerProvider extends TracerProvider {
  /** Exports buffered spans; rejects if an export fails (standard OTel). */
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}

export interface TracerProviderOptions extends TelltaleExporterOptions {
  /** `service.name` of the resource. Default: `OTEL_SERVICE_NAME`, else OTel's `unknown_service:node`. */
  service?: string;
  /** `telltale.project` resource attribute (used when the server runs without API keys). */
  project?: string;
  /** Export here instead of OTLP (tests: `InMemorySpanExporter`). */
  exporter?: SpanExporter;
  /** Extra resource attributes; they win over `OTEL_RESOURCE_ATTRIBUTES`, `service` and `project` win over them. */
  resourceAttributes?: Record<string, string | number | boolean>;
  /** BatchSpanProcessor tuning (queue size, delay…). */
  batch?: BufferConfig;
  /** Extra processors, run after the run-id processor and before the exporting one. */
  spanProcessors?: SpanProcessor[];
}

/**
 * A tracer provider that sends spans to Telltale: resource with `service.name`
 * (and `telltale.project`) over `OTEL_RESOURCE_ATTRIBUTES` / `OTEL_SERVICE_NAME`,
 * the run-id processor, and a batch processor over `createTelltaleExporter`
 * (or `exporter`). Not registered globally: pass it to
 * `createTelltale({ tracerProvider })`, and `shutdown()` it when done.
 */
export function createTracerProvider(opts: TracerProviderOptions = {}): TelltaleTracerProvider {
  const exporter = opts.exporter ?? createTelltaleExporter(opts);
  return new BasicTracerProvider({
    resource: telltaleResource(opts),
    spanProcessors: [
      new RunIdSpanProcessor(),
      ...(opts.spanProcessors ?? []),
      new CountingBatchSpanProcessor(exporter, opts.batch),
    ],
  });
}
