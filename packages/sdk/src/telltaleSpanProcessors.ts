import type { BufferConfig, SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createTelltaleExporter } from './createTelltaleExporter.js';
import type { TelltaleExporterOptions } from './createTelltaleExporter.js';
import { CountingBatchSpanProcessor } from './internal/CountingBatchSpanProcessor.js';
import { RunIdSpanProcessor } from './RunIdSpanProcessor.js';

export interface TelltaleSpanProcessorsOptions extends TelltaleExporterOptions {
  /** Export here instead of OTLP to Telltale (tests: `InMemorySpanExporter`). */
  exporter?: SpanExporter;
  /** BatchSpanProcessor tuning (queue size, delay…). */
  batch?: BufferConfig;
}

/**
 * The processors to add to an OpenTelemetry setup you already have (NodeSDK's
 * `spanProcessors`, or a provider's): the run-id processor, then a batch
 * processor over `createTelltaleExporter(opts)` whose failed exports go to
 * the SDK's error handler. Keep the run-id processor first so other
 * processors see the stamped id.
 */
export function telltaleSpanProcessors(opts: TelltaleSpanProcessorsOptions = {}): SpanProcessor[] {
  const exporter = opts.exporter ?? createTelltaleExporter(opts);
  return [new RunIdSpanProcessor(), new CountingBatchSpanProcessor(exporter, opts.batch)];
}
