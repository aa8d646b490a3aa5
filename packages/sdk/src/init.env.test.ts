import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, defaultTextMapSetter, propagation } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { OtelAttr, TelltaleAttr } from '@telltale/semconv';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { run } from './defaultTelltale.js';
import { init, shutdown } from './init.js';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A real HTTP server standing in for an OTLP receiver: records each request, answers 200. */
let server: Server;
let base = '';
const received: Received[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
afterEach(async () => {
  await shutdown({ timeoutMs: 2000 });
  vi.unstubAllEnvs();
  received.length = 0;
});

/** One run through `init(opts)`; returns the spans as exported to memory and the OTLP request received. */
async function oneRun(opts: Parameters<typeof init>[0]): Promise<{ spans: ReadableSpan[]; request: Received }> {
  const memory = new InMemorySpanExporter();
  init({ ...opts, spanProcessors: [new SimpleSpanProcessor(memory)] });
  await run('agent', () => 'ok');
  const spans = memory.getFinishedSpans(); // shutdown clears the memory exporter
  await shutdown({ timeoutMs: 5000 });
  expect(received).toHaveLength(1);
  return { spans, request: received[0]! };
}

describe('init reads the standard OTel and TELLTALE_* environment', () => {
  it('OTEL_EXPORTER_OTLP_ENDPOINT, _HEADERS, OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES', async () => {
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', `${base}/otlp`);
    vi.stubEnv('OTEL_EXPORTER_OTLP_HEADERS', 'x-team=ops,authorization=Bearer%20otel-key');
    vi.stubEnv('OTEL_SERVICE_NAME', 'env-agent');
    vi.stubEnv('OTEL_RESOURCE_ATTRIBUTES', 'deployment.environment=staging,telltale.project=acme,service.name=ignored');
    const { spans, request } = await oneRun({});
    expect(request.path).toBe('/otlp/v1/traces');
    expect(request.headers['x-team']).toBe('ops');
    expect(request.headers.authorization).toBe('Bearer otel-key');
    expect(request.headers['content-type']).toBe('application/x-protobuf');
    const resource = spans[0]!.resource.attributes;
    expect(resource[OtelAttr.serviceName]).toBe('env-agent');
    expect(resource['deployment.environment']).toBe('staging');
    expect(resource[TelltaleAttr.project]).toBe('acme');
    // …and those are the attributes that went over the wire (protobuf keeps strings as UTF-8).
    for (const s of ['env-agent', 'deployment.environment', 'staging', 'acme'])
      expect(request.body.includes(s)).toBe(true);
  });

  it('the traces-specific endpoint is used as is; traces headers win over the general ones', async () => {
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', 'http://127.0.0.1:9');
    vi.stubEnv('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', `${base}/custom/spans`);
    vi.stubEnv('OTEL_EXPORTER_OTLP_HEADERS', 'x-team=ops,x-env=general');
    vi.stubEnv('OTEL_EXPORTER_OTLP_TRACES_HEADERS', 'x-env=traces');
    const { request } = await oneRun({ service: 'svc' });
    expect(request.path).toBe('/custom/spans');
    expect([request.headers['x-team'], request.headers['x-env']]).toEqual(['ops', 'traces']);
  });

  it('TELLTALE_ENDPOINT and TELLTALE_API_KEY win over OTEL_*; explicit options win over both', async () => {
    vi.stubEnv('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'http://127.0.0.1:9/v1/traces');
    vi.stubEnv('OTEL_EXPORTER_OTLP_HEADERS', 'authorization=Bearer%20otel-key,x-team=ops');
    vi.stubEnv('OTEL_SERVICE_NAME', 'env-agent');
    vi.stubEnv('OTEL_RESOURCE_ATTRIBUTES', 'deployment.environment=staging');
    vi.stubEnv('TELLTALE_ENDPOINT', `${base}/tt/`);
    vi.stubEnv('TELLTALE_API_KEY', 'tt_env');
    const fromEnv = await oneRun({});
    expect(fromEnv.request.path).toBe('/tt/v1/traces');
    expect(fromEnv.request.headers.authorization).toBe('Bearer tt_env');
    expect(fromEnv.request.headers['x-team']).toBe('ops');
    received.length = 0;

    const explicit = await oneRun({
      endpoint: `${base}/explicit`,
      apiKey: 'tt_explicit',
      service: 'explicit-agent',
      resourceAttributes: { 'deployment.environment': 'prod' },
    });
    expect(explicit.request.path).toBe('/explicit/v1/traces');
    expect(explicit.request.headers.authorization).toBe('Bearer tt_explicit');
    const resource = explicit.spans[0]!.resource.attributes;
    expect(resource[OtelAttr.serviceName]).toBe('explicit-agent');
    expect(resource['deployment.environment']).toBe('prod');
  });

  it('uses an endpoint that already ends in /v1/traces as is', async () => {
    expect((await oneRun({ endpoint: `${base}/v1/traces` })).request.path).toBe('/v1/traces');
    received.length = 0;
    vi.stubEnv('TELLTALE_ENDPOINT', `${base}/tt/v1/traces/`);
    expect((await oneRun({})).request.path).toBe('/tt/v1/traces');
  });

  it('registers the W3C trace-context + baggage propagator, and removes it on shutdown', async () => {
    vi.stubEnv('TELLTALE_ENDPOINT', base);
    init();
    const headers: Record<string, string> = {};
    const runId = await run('agent', (r) => {
      propagation.inject(context.active(), headers, defaultTextMapSetter);
      return r.runId;
    });
    expect(headers.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(headers.baggage).toBe(`${TelltaleAttr.runId}=${runId}`);
    await shutdown({ timeoutMs: 5000 });
    const after: Record<string, string> = {};
    await run('agent', () => propagation.inject(context.active(), after, defaultTextMapSetter));
    expect(after).toEqual({});
  });
});
