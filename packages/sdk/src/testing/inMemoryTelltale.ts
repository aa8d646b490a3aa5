import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { TelltaleAttr } from '@telltale/semconv';
import { createTelltale } from '../createTelltale.js';
import type { Telltale } from '../createTelltale.js';
import { RunIdSpanProcessor } from '../RunIdSpanProcessor.js';

export interface InMemoryTelltale {
  telltale: Telltale;
  provider: BasicTracerProvider;
  exporter: InMemorySpanExporter;
  /** Finished spans, in end order. */
  spans: () => ReadableSpan[];
  /** The one finished span with this name (throws if there is not exactly one). */
  span: (name: string) => ReadableSpan;
}

/** Test fixture: wrappers over a provider that exports synchronously to memory. */
export function inMemoryTelltale(extraExporter?: SpanExporter): InMemoryTelltale {
  const exporter = new InMemorySpanExporter();
  const processors = [new RunIdSpanProcessor(), new SimpleSpanProcessor(exporter)];
  if (extraExporter) processors.push(new SimpleSpanProcessor(extraExporter));
  const provider = new BasicTracerProvider({ spanProcessors: processors });
  const spans = (): ReadableSpan[] => exporter.getFinishedSpans();
  return {
    telltale: createTelltale({ tracerProvider: provider }),
    provider,
    exporter,
    spans,
    span: (name) => {
      const found = spans().filter((s) => s.name === name);
      if (found.length !== 1) throw new Error(`expected one span named ${name}, found ${found.length}`);
      return found[0]!;
    },
  };
}

export function attr(span: ReadableSpan, key: string): unknown {
  return span.attributes[key];
}

export function runIdOf(span: ReadableSpan): unknown {
  return span.attributes[TelltaleAttr.runId];
}

export function parentIdOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}
