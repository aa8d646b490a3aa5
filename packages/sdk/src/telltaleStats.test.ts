import type { ExportResult } from '@opentelemetry/core';
import { ExportResultCode } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { TelltaleError } from '@telltale/semconv';
import { afterEach, describe, expect, it } from 'vitest';
import { createTelltale } from './createTelltale.js';
import { createTracerProvider } from './createTracerProvider.js';
import { setErrorHandler } from './errorHandler.js';
import { init, shutdown } from './init.js';
import { telltaleStats } from './telltaleStats.js';

/** A collector that never answers: each export hangs until released. */
class StalledExporter implements SpanExporter {
  readonly pending: { spans: number; done: (r: ExportResult) => void }[] = [];
  export(spans: ReadableSpan[], done: (r: ExportResult) => void): void {
    this.pending.push({ spans: spans.length, done });
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

afterEach(() => setErrorHandler(undefined));

describe('telltaleStats', () => {
  it('counts the spans a full queue drops, reports the burst once, and never blocks the agent', async () => {
    const faults: TelltaleError[] = [];
    setErrorHandler((e) => faults.push(e));
    const exporter = new StalledExporter();
    const provider = createTracerProvider({
      exporter,
      batch: { maxQueueSize: 10, maxExportBatchSize: 10, scheduledDelayMillis: 60_000, exportTimeoutMillis: 60_000 },
    });
    const tt = createTelltale({ tracerProvider: provider });
    const before = telltaleStats();

    // 25 tool steps outside a run = 25 spans: 10 go to the stalled export, 10 wait, 5 are dropped.
    for (let i = 0; i < 25; i++) expect(await tt.tool('lookup', { i }, () => i)).toBe(i);

    const mid = telltaleStats();
    expect(exporter.pending.map((p) => p.spans)).toEqual([10]);
    expect(mid.droppedSpans - before.droppedSpans).toBe(5);
    expect(mid.queuedSpans - before.queuedSpans).toBe(10);
    expect(mid.exportingSpans - before.exportingSpans).toBe(10);
    expect(faults.map((f) => f.message)).toEqual([expect.stringContaining('span queue full (10)')]);

    // The collector comes back: the stalled batch fails, the queued one succeeds.
    exporter.pending.shift()!.done({ code: ExportResultCode.FAILED, error: new Error('ECONNREFUSED') });
    const flushed = provider.forceFlush();
    const deadline = Date.now() + 5000;
    while (exporter.pending.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    exporter.pending.shift()!.done({ code: ExportResultCode.SUCCESS });
    await flushed;
    const after = telltaleStats();
    expect(after.queuedSpans - before.queuedSpans).toBe(0);
    expect(after.exportingSpans - before.exportingSpans).toBe(0);
    expect(after.failedSpans - before.failedSpans).toBe(10);
    expect(after.exportedSpans - before.exportedSpans).toBe(10);
    await provider.shutdown();
  });

  it('a shutdown that gives up says how many spans are left, and in which state', async () => {
    const faults: TelltaleError[] = [];
    const exporter = new StalledExporter();
    const before = telltaleStats();
    init({
      exporter,
      batch: { scheduledDelayMillis: 60_000, exportTimeoutMillis: 60_000 },
      onError: (e) => faults.push(e as TelltaleError),
    });
    const tt = createTelltale();
    for (let i = 0; i < 3; i++) await tt.tool('lookup', { i }, () => i);
    expect(telltaleStats().queuedSpans - before.queuedSpans).toBe(3);
    await shutdown({ timeoutMs: 100 });
    const left = telltaleStats();
    expect(left.queuedSpans - before.queuedSpans).toBe(0);
    expect(left.exportingSpans - before.exportingSpans).toBe(3);
    expect(faults.map((f) => f.message)).toEqual([
      expect.stringMatching(/gave up after 100 ms, 3 spans not exported yet \(0 queued, 3 in an export/),
    ]);
    // the collector answers at last: the export ends, and the spans are counted as exported
    for (const p of exporter.pending.splice(0)) p.done({ code: ExportResultCode.SUCCESS });
    const done = telltaleStats();
    expect(done.exportingSpans - before.exportingSpans).toBe(0);
    expect(done.exportedSpans - before.exportedSpans).toBe(3);
  });
});
