import {
  ROOT_CONTEXT,
  context,
  defaultTextMapGetter,
  defaultTextMapSetter,
  propagation,
  trace,
} from '@opentelemetry/api';
import type { Context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { TelltaleAttr } from '@telltale/semconv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunIdSpanProcessor } from './RunIdSpanProcessor.js';
import { inMemoryTelltale, runIdOf } from './testing/inMemoryTelltale.js';

const w3c = new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] });

/** A "downstream" provider: plain OTel plus our processor, nothing else of the SDK. */
function downstream(): { provider: BasicTracerProvider; exporter: InMemorySpanExporter } {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    spanProcessors: [new RunIdSpanProcessor(), new SimpleSpanProcessor(exporter)],
  });
  return { provider, exporter };
}

function withBaggage(entries: Record<string, string>): Context {
  const bag = propagation.createBaggage(Object.fromEntries(Object.entries(entries).map(([k, v]) => [k, { value: v }])));
  return propagation.setBaggage(ROOT_CONTEXT, bag);
}

describe('RunIdSpanProcessor and the run id in W3C baggage', () => {
  beforeAll(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  });
  afterAll(() => {
    context.disable();
  });

  it('run() puts its run id in the baggage, next to the entries already there', async () => {
    const t = inMemoryTelltale();
    const outer = propagation.setBaggage(ROOT_CONTEXT, propagation.createBaggage({ 'tenant.id': { value: 'acme' } }));
    const { runId, entries } = await context.with(outer, () =>
      t.telltale.run('agent', (r) => {
        const bag = propagation.getBaggage(context.active());
        return {
          runId: r.runId,
          entries: Object.fromEntries((bag?.getAllEntries() ?? []).map(([k, e]) => [k, e.value])),
        };
      }),
    );
    expect(entries).toEqual({ 'tenant.id': 'acme', [TelltaleAttr.runId]: runId });
  });

  it('carries the run over injected W3C headers to a plain-OTel service, on every span there', async () => {
    const up = inMemoryTelltale();
    const down = downstream();
    const headers: Record<string, string> = {};
    const runId = await up.telltale.run('agent', (r) =>
      up.telltale.tool('call-inventory', {}, () => {
        w3c.inject(context.active(), headers, defaultTextMapSetter);
        return r.runId;
      }),
    );
    expect(headers.baggage).toBe(`${TelltaleAttr.runId}=${runId}`);
    expect(headers.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);

    // The receiving side: extract, then a server span and a child of it.
    const received = w3c.extract(ROOT_CONTEXT, headers, defaultTextMapGetter);
    const tracer = down.provider.getTracer('inventory');
    const server = tracer.startSpan('GET /stock', {}, received);
    const child = tracer.startSpan('db.query', {}, trace.setSpan(received, server));
    child.end();
    server.end();
    const spans = down.exporter.getFinishedSpans();
    expect(spans.map((s) => [s.name, runIdOf(s)])).toEqual([
      ['db.query', runId],
      ['GET /stock', runId],
    ]);
    expect(spans[1]!.spanContext().traceId).toBe(up.span('agent').spanContext().traceId);
  });

  it('prefers the in-process run, keeps an id already set, and ignores unusable baggage values', () => {
    const { provider, exporter } = downstream();
    const tracer = provider.getTracer('t');
    tracer.startSpan('from-baggage', {}, withBaggage({ [TelltaleAttr.runId]: ' run-7 ' })).end();
    tracer
      .startSpan('own-id', { attributes: { [TelltaleAttr.runId]: 'mine' } }, withBaggage({ [TelltaleAttr.runId]: 'x' }))
      .end();
    tracer.startSpan('empty', {}, withBaggage({ [TelltaleAttr.runId]: '  ' })).end();
    tracer.startSpan('too-long', {}, withBaggage({ [TelltaleAttr.runId]: 'r'.repeat(257) })).end();
    tracer.startSpan('other-entry', {}, withBaggage({ 'tenant.id': 'acme' })).end();
    tracer.startSpan('no-baggage', {}, ROOT_CONTEXT).end();
    expect(Object.fromEntries(exporter.getFinishedSpans().map((s) => [s.name, runIdOf(s)]))).toEqual({
      'from-baggage': 'run-7',
      'own-id': 'mine',
      empty: undefined,
      'too-long': undefined,
      'other-entry': undefined,
      'no-baggage': undefined,
    });
  });

  it('a run started under a foreign run id in baggage stamps its own id', async () => {
    const t = inMemoryTelltale();
    const runId = await context.with(withBaggage({ [TelltaleAttr.runId]: 'upstream-run' }), () =>
      t.telltale.run('inner', (r) => {
        t.provider.getTracer('http').startSpan('GET /x').end();
        return r.runId;
      }),
    );
    expect(runIdOf(t.span('inner'))).toBe(runId);
    expect(runIdOf(t.span('GET /x'))).toBe(runId);
  });
});
