import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { OtelAttr, TelltaleAttr } from '@telltale/semconv';
import { afterEach, describe, expect, it } from 'vitest';
import { run, tool } from './defaultTelltale.js';
import { setErrorHandler } from './errorHandler.js';
import { init, shutdown } from './init.js';

// One process per test file: these tests own the global tracer provider, in order.
afterEach(async () => {
  await shutdown({ timeoutMs: 500 });
  setErrorHandler(undefined);
});

describe('init', () => {
  it('registers a provider with the resource, used by the module-level wrappers', async () => {
    const exporter = new InMemorySpanExporter();
    const handle = init({
      service: 'billing-agent',
      project: 'acme',
      exporter,
      resourceAttributes: { 'deployment.environment': 'test' },
    });
    expect(handle.installed).toBe(true);
    expect(init({ service: 'other' })).toBe(handle);

    const runId = await run('refund', async (r) => {
      await tool('lookup', { id: 1 }, () => 'row');
      return r.runId;
    });
    await handle.forceFlush();
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => s.name).sort()).toEqual(['lookup', 'refund']);
    for (const s of spans) {
      expect(s.attributes[TelltaleAttr.runId]).toBe(runId);
      expect(s.resource.attributes[OtelAttr.serviceName]).toBe('billing-agent');
      expect(s.resource.attributes[TelltaleAttr.project]).toBe('acme');
      expect(s.resource.attributes['deployment.environment']).toBe('test');
    }

    await shutdown();
    // After shutdown the wrappers keep working, without tracing.
    expect(await run('after', () => 'still runs')).toBe('still runs');
    expect(trace.getTracer('x').startSpan('y').isRecording()).toBe(false);
  });

  it('reports a failing endpoint through onError and shuts down cleanly', async () => {
    let requests = 0;
    let auth: string | undefined;
    const server = createServer((req, res) => {
      requests++;
      auth = req.headers.authorization;
      req.resume();
      res.writeHead(400).end('bad');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const errors: unknown[] = [];
    init({
      service: 'svc',
      endpoint: `http://127.0.0.1:${port}/`,
      apiKey: 'tt_secret',
      onError: (e) => errors.push(e),
    });
    expect(await run('agent', () => 'ok')).toBe('ok');
    await expect(shutdown()).resolves.toBeUndefined();
    server.close();
    expect(requests).toBe(1);
    expect(auth).toBe('Bearer tt_secret');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ name: 'TelltaleError', code: 'UNAVAILABLE' });
  });

  it('resolves shutdown without throwing when the endpoint is unreachable', async () => {
    const errors: unknown[] = [];
    // Port 9 (discard) refuses connections; the exporter retries, shutdown gives up in time.
    init({ service: 'svc', endpoint: 'http://127.0.0.1:9', onError: (e) => errors.push(e) });
    expect(await run('agent', () => tool('t', {}, () => 1))).toBe(1);
    const started = Date.now();
    await expect(shutdown({ timeoutMs: 1000 })).resolves.toBeUndefined();
    expect(Date.now() - started).toBeLessThan(5000);
    expect(errors.length).toBeGreaterThan(0);
  });

  it('uses an already registered provider and leaves it alone on shutdown', async () => {
    const exporter = new InMemorySpanExporter();
    const theirs = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    expect(trace.setGlobalTracerProvider(theirs)).toBe(true);
    const handle = init({ service: 'ignored' });
    expect(handle.installed).toBe(false);
    const runId = await run('agent', (r) => tool('t', {}, () => r.runId));
    await shutdown();
    expect(await run('agent-2', () => 2)).toBe(2);
    expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(['t', 'agent', 'agent-2']);
    expect(exporter.getFinishedSpans()[0]?.attributes[TelltaleAttr.runId]).toBe(runId);
    trace.disable();
  });
});
