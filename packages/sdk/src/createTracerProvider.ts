import type { TracerProvider } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { BufferConfig, SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { OtelAttr, TelltaleAttr } from '@telltale/semconv';
import { ReportingExporter } from './internal/ReportingExporter.js';
import { RunIdSpanProcessor } from './RunIdSpanProcessor.js';

export const DEFAULT_ENDPOINT = 'http://127.0.0.1:4318';

/** A tracer provider you own: flush it, and shut it down when done. */
export interface TelltaleTracerProvider extends TracerProvider {
  /** Exports buffered spans; rejects if an export fails (standard OTel). */
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}

export interface TracerProviderOptions {
  /** OTLP/HTTP base URL of the Telltale server (spans go to `${endpoint}/v1/traces`). Default `http://127.0.0.1:4318`. */
  endpoint?: string;
  /** Sent as `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  /** `service.name` of the resource. */
  service: string;
  /** `telltale.project` resource attribute (used when the server runs without API keys). */
  project?: string;
  /** Export here instead of OTLP (tests: `InMemorySpanExporter`). */
  exporter?: SpanExporter;
  /** Extra resource attributes; `service` and `project` win on a clash. */
  resourceAttributes?: Record<string, string | number | boolean>;
  /** BatchSpanProcessor tuning (queue size, delay…). */
  batch?: BufferConfig;
  /** Extra processors, run after the run-id processor and before the exporting one. */
  spanProcessors?: SpanProcessor[];
}

/**
 * A tracer provider that sends spans to Telltale: resource with `service.name`
 * (and `telltale.project`), the run-id processor, and a batch processor over
 * the OTLP protobuf exporter (or `exporter`). Not registered globally: pass it
 * to `createTelltale({ tracerProvider })`, and `shutdown()` it when done.
 */
export function createTracerProvider(opts: TracerProviderOptions): TelltaleTracerProvider {
  const endpoint = (opts.endpoint ?? DEFAULT_ENDPOINT).replace(/\/+$/, '');
  const exporter =
    opts.exporter ??
    new OTLPTraceExporter({
      url: `${endpoint}/v1/traces`,
      headers: opts.apiKey === undefined ? {} : { Authorization: `Bearer ${opts.apiKey}` },
    });
  const attributes: Record<string, string | number | boolean> = {
    ...opts.resourceAttributes,
    [OtelAttr.serviceName]: opts.service,
  };
  if (opts.project !== undefined) attributes[TelltaleAttr.project] = opts.project;
  return new BasicTracerProvider({
    resource: defaultResource().merge(resourceFromAttributes(attributes)),
    spanProcessors: [
      new RunIdSpanProcessor(),
      ...(opts.spanProcessors ?? []),
      new BatchSpanProcessor(new ReportingExporter(exporter), opts.batch),
    ],
  });
}
