import type { ExportResult } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { createTelltale, createTracerProvider } from '@telltale/sdk';

/** One small agent run, exported by the official OTLP/proto exporter with `key` as the bearer; the exporter's verdict. */
export async function exportRunWithKey(url: string, key: string): Promise<{ runId: string; result: ExportResult }> {
  const memory = new InMemorySpanExporter();
  const provider = createTracerProvider({ service: 'keyed-export', exporter: memory });
  const tt = createTelltale({ tracerProvider: provider });
  const runId = await tt.run('keyed-agent', async (run) => {
    await tt.tool('lookup', { q: 'x' }, () => 'hit');
    return run.runId;
  });
  await provider.forceFlush();
  const spans = [...memory.getFinishedSpans()];
  await provider.shutdown();
  const exporter = new OTLPTraceExporter({
    url: `${url}/v1/traces`,
    headers: { Authorization: `Bearer ${key}` },
    timeoutMillis: 10_000,
  });
  try {
    return { runId, result: await new Promise<ExportResult>((resolve) => exporter.export(spans, resolve)) };
  } finally {
    await exporter.shutdown();
  }
}

/** Calls `attempt` until `done` holds of its result or `ms` pass (100 ms between tries); the last result and how long it took. */
export async function pollUntil<T>(
  attempt: () => Promise<T>,
  done: (value: T) => boolean,
  ms: number,
): Promise<{ value: T; tookMs: number }> {
  const start = Date.now();
  let value = await attempt();
  while (!done(value) && Date.now() - start < ms) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await attempt();
  }
  return { value, tookMs: Date.now() - start };
}
