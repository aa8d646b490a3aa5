import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { OtelAttr, TelltaleAttr } from '@telltale/semconv';
import type { TelltaleError } from '@telltale/semconv';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { run, tool } from './defaultTelltale.js';
import { setErrorHandler } from './errorHandler.js';
import { init, shutdown } from './init.js';
import { telltaleStats } from './telltaleStats.js';

// One process per test file: these tests own the global tracer provider, in order.
afterEach(async () => {
  await shutdown({ timeoutMs: 500 });
  setErrorHandler(undefined);
  vi.unstubAllEnvs();
});

/** The code and message of each fault. */
function described(faults: TelltaleError[]): [string, string][] {
  return faults.map((f) => [f.code, f.message]);
}

describe('init', () => {
  it('registers a provider with the resource, used by the module-level wrappers', async () => {
    const exporter = new InMemorySpanExporter();
    const faults: TelltaleError[] = [];
    const handle = init({
      service: 'billing-agent',
      project: 'acme',
      exporter,
      resourceAttributes: { 'deployment.environment': 'test' },
      onError: (e) => faults.push(e as TelltaleError),
    });
    expect(handle.installed).toBe(true);
    expect(init({ service: 'other' })).toBe(handle);
    faults.length = 0;

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
    // After shutdown the wrappers keep working, without tracing; the first span lost is reported once.
    expect(await run('after', () => 'still runs')).toBe('still runs');
    expect(await run('after-2', () => tool('t', {}, () => 'still runs'))).toBe('still runs');
    expect(trace.getTracer('x').startSpan('y').isRecording()).toBe(false);
    expect(described(faults)).toEqual([
      [
        'UNAVAILABLE',
        'telltale sdk shutdown: span started after shutdown(): not exported, nor are later spans until init() runs again',
      ],
    ]);
  });

  it('reports options given to a second init as ignored, and returns the same handle', async () => {
    const faults: TelltaleError[] = [];
    const onError = (e: unknown): number => faults.push(e as TelltaleError);
    const exporter = new InMemorySpanExporter();
    const handle = init({ service: 'agent', exporter, resourceAttributes: { tier: 'a' }, onError });
    // no options, or the same ones, are not a conflict
    expect(init()).toBe(handle);
    expect(init({ service: 'agent', resourceAttributes: { tier: 'a' }, onError })).toBe(handle);
    expect(faults).toEqual([]);
    expect(init({ service: 'agent', endpoint: 'http://127.0.0.1:4401', capture: 'full' })).toBe(handle);
    expect(described(faults)).toEqual([
      [
        'INVALID_CONFIG',
        'telltale sdk init: init() already ran, so the options of this call are ignored (endpoint, capture differ); call shutdown() first to apply them',
      ],
    ]);
    await tool('search', { q: 'x' }, () => 'result');
    await handle.forceFlush();
    expect(exporter.getFinishedSpans()[0]?.attributes[OtelAttr.genAiToolCallArguments]).toBeUndefined();
  });

  it('does not report spans after shutdown when another provider took over', async () => {
    const faults: TelltaleError[] = [];
    init({ exporter: new InMemorySpanExporter(), onError: (e) => faults.push(e as TelltaleError) });
    await shutdown();
    const exporter = new InMemorySpanExporter();
    expect(
      trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })),
    ).toBe(true);
    expect(await run('theirs', () => 1)).toBe(1);
    expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(['theirs']);
    expect(faults).toEqual([]);
    trace.disable();
  });

  it('reports invalid options once and ignores them', async () => {
    const faults: TelltaleError[] = [];
    setErrorHandler((e) => faults.push(e));
    init('http://127.0.0.1:4318' as never);
    await shutdown();
    const exporter = new InMemorySpanExporter();
    init({ exporter, capture: 'everything' as never });
    await tool('search', { q: 'secret' }, () => 'result');
    await shutdown();
    expect(described(faults)).toEqual([
      ['INVALID_CONFIG', 'telltale sdk config: init: options must be an object, got "http://127.0.0.1:4318": ignored'],
      [
        'INVALID_CONFIG',
        `telltale sdk config: init: capture must be 'none', 'metadata' or 'full', got "everything": ignored, nothing is captured`,
      ],
    ]);
  });

  it('reports an endpoint that is not an http(s) URL once, and exports nothing', async () => {
    const faults: TelltaleError[] = [];
    const failedBefore = telltaleStats().failedSpans;
    init({ endpoint: 'localhost:4401', onError: (e) => faults.push(e as TelltaleError) });
    expect(await run('agent', () => tool('t', {}, () => 1))).toBe(1);
    await shutdown({ timeoutMs: 2000 });
    expect(described(faults)).toEqual([
      [
        'INVALID_CONFIG',
        'telltale sdk config: endpoint "localhost:4401" is not an http(s) URL (expected e.g. "http://localhost:4401"): spans are not exported',
      ],
    ]);
    expect(telltaleStats().failedSpans - failedBefore).toBe(2);

    faults.length = 0;
    vi.stubEnv('TELLTALE_ENDPOINT', 'ftp://telltale.internal');
    init({ onError: (e) => faults.push(e as TelltaleError) });
    await shutdown({ timeoutMs: 2000 });
    expect(described(faults)).toEqual([
      [
        'INVALID_CONFIG',
        'telltale sdk config: TELLTALE_ENDPOINT "ftp://telltale.internal" is not an http(s) URL (expected e.g. "http://127.0.0.1:4318"): spans are not exported',
      ],
    ]);
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
    expect(errors[0]).toMatchObject({
      name: 'TelltaleError',
      code: 'UNAVAILABLE',
      message: `telltale sdk export: export of 1 span to http://127.0.0.1:${port}/v1/traces failed: HTTP 400 Bad Request`,
    });
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
