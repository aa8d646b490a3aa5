import { writeFileSync } from 'node:fs';
import { context, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { type ExportResult } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  SimpleSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';

/** Where the recorded OTLP payloads of the interop tests live (committed; replayed by interopFixtures.test.ts). */
export const INTEROP_FIXTURES_DIR = new URL('../../fixtures/interop/', import.meta.url);

/** Passes spans on to the official exporter and keeps a copy of each batch it exported. */
class RecordingExporter implements SpanExporter {
  readonly batches: ReadableSpan[][] = [];
  constructor(private readonly inner: SpanExporter) {}
  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.batches.push([...spans]);
    this.inner.export(spans, done);
  }
  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

/**
 * A third-party library's tracing set up the way its users do it: an OTel
 * SDK 2.x tracer provider with the official OTLP/HTTP protobuf exporter
 * pointed at Telltale's `/v1/traces`, the async-hooks context manager, and
 * a copy of every exported batch for the fixture set (`exporter` replaces
 * the OTLP/HTTP one, e.g. with the gRPC exporter).
 *
 * `simple` exports each span as it ends — children before their parents, in
 * separate requests (the late-parent case); otherwise spans are batched.
 */
export class InteropTracing {
  readonly provider: BasicTracerProvider;
  private readonly recorder: RecordingExporter;
  private readonly contextManager = new AsyncLocalStorageContextManager();

  constructor(
    endpoint: string,
    serviceName: string,
    opts: { simple?: boolean; headers?: Record<string, string>; exporter?: SpanExporter } = {},
  ) {
    this.recorder = new RecordingExporter(
      opts.exporter ?? new OTLPTraceExporter({ url: `${endpoint}/v1/traces`, headers: opts.headers ?? {} }),
    );
    const processor =
      opts.simple === true
        ? new SimpleSpanProcessor(this.recorder)
        : new BatchSpanProcessor(this.recorder, { scheduledDelayMillis: 50 });
    this.provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ 'service.name': serviceName }),
      spanProcessors: [processor],
    });
    context.setGlobalContextManager(this.contextManager.enable());
  }

  tracer(name: string): Tracer {
    return this.provider.getTracer(name);
  }

  /** Flushes every span to Telltale; resolves once the exporter has sent them. */
  async flush(): Promise<void> {
    await this.provider.forceFlush();
  }

  async shutdown(): Promise<void> {
    await this.provider.shutdown();
    context.disable();
  }

  /** Every exported span (all batches, in export order). */
  spans(): ReadableSpan[] {
    return this.recorder.batches.flat();
  }

  /**
   * Writes the exported batches as OTLP/JSON ExportTraceServiceRequests (one
   * per batch, in export order) to `test/fixtures/interop/<name>.json` when
   * TELLTALE_RECORD_FIXTURES=1; returns them either way.
   */
  recordFixture(name: string): unknown[] {
    const requests = this.recorder.batches.map(
      (batch) => JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(batch))) as unknown,
    );
    if (process.env['TELLTALE_RECORD_FIXTURES'] === '1') {
      writeFileSync(
        new URL(`${name}.json`, INTEROP_FIXTURES_DIR),
        `${JSON.stringify({ source: name, requests }, null, 1)}\n`,
      );
    }
    return requests;
  }
}
