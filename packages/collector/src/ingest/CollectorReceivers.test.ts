import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, credentials, Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoopSignals } from '../loops/loopSignals.js';
import { Collector } from './Collector.js';
import type { ExportDone } from './ExportDone.js';

/** One export of 10 valid spans of one run, made by the OTel SDK. */
function exportBody(): Buffer {
  const memory = new InMemorySpanExporter();
  const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(memory)] }).getTracer(
    'receivers-test',
  );
  for (let i = 0; i < 10; i++)
    tracer.startSpan(i === 0 ? 'agent run' : `step ${i}`, { attributes: { 'telltale.run.id': 'run-1' } }).end();
  return Buffer.from(ProtobufTraceSerializer.serializeRequest(memory.getFinishedSpans())!);
}
const BODY = exportBody();

/** Keys: `Bearer good` is project p1, `Bearer full` is project p2 (always over its quota), anything else unknown. */
const PROJECT_OF: Record<string, string> = { 'Bearer good': 'p1', 'Bearer full': 'p2' };

describe('Collector receivers: the policy given at open applies to OTLP/HTTP and OTLP/gRPC alike', () => {
  const done: ExportDone[] = [];
  const accepted: LoopSignals[] = [];
  let dir: string;
  let collector: Collector;
  let server: Server;
  let httpUrl: string;
  let grpcAddress: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'telltale-receivers-'));
    collector = await Collector.open({
      spool: { dir },
      storage: {
        insert: async (messages) => {
          for await (const m of messages) void m;
        },
      },
      workers: 0,
      policy: {
        authenticate: (authorization) => (authorization === undefined ? undefined : PROJECT_OF[authorization]),
        admit: (projectId) => (projectId === 'p2' ? { retryAfterSeconds: 7 } : undefined),
      },
      observe: { onDone: (d) => done.push(d), onAccepted: (loops) => accepted.push(loops) },
    });
    server = createServer(collector.httpHandler());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    httpUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`;
    grpcAddress = `127.0.0.1:${(await collector.startGrpc('127.0.0.1', 0)).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await collector.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function postHttp(authorization?: string): Promise<Response> {
    return fetch(httpUrl, {
      method: 'POST',
      body: BODY,
      headers: { 'content-type': 'application/x-protobuf', ...(authorization === undefined ? {} : { authorization }) },
      signal: AbortSignal.timeout(10_000),
    });
  }

  function callGrpc(authorization?: string): Promise<ServiceError | null> {
    const client = new Client(grpcAddress, credentials.createInsecure());
    const metadata = new Metadata();
    if (authorization !== undefined) metadata.set('authorization', authorization);
    return new Promise((resolve) => {
      const deadline = Date.now() + 10_000;
      client.makeUnaryRequest(
        '/opentelemetry.proto.collector.trace.v1.TraceService/Export',
        (b: Buffer) => b,
        (b: Buffer) => b,
        BODY,
        metadata,
        { deadline },
        (err: ServiceError | null) => {
          client.close();
          resolve(err);
        },
      );
    });
  }

  it('accepts a known key on both receivers, then tells the live-event sink and the observer', async () => {
    done.length = 0;
    accepted.length = 0;
    const res = await postHttp('Bearer good');
    expect(res.status).toBe(200);
    expect(await callGrpc('Bearer good')).toBeNull();
    expect(accepted).toHaveLength(2);
    await expect
      .poll(() => done.map((d) => [d.protocol, d.status, d.projectId, d.spans]), { timeout: 5_000 })
      .toEqual([
        ['http', 200, 'p1', 10],
        ['grpc', 0, 'p1', 10],
      ]);
    await collector.drained(10_000);
    expect(collector.backlogSpans).toBe(0);
  });

  it('refuses an unknown or missing key before anything is kept: 401 + WWW-Authenticate, UNAUTHENTICATED', async () => {
    done.length = 0;
    accepted.length = 0;
    const res = await postHttp('Bearer nope');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect((await callGrpc())?.code).toBe(status.UNAUTHENTICATED);
    expect(accepted).toHaveLength(0);
    await expect
      .poll(() => done.map((d) => [d.protocol, d.status, d.projectId, d.error?.code]), { timeout: 5_000 })
      .toEqual([
        ['http', 401, undefined, 'UNAUTHORIZED'],
        ['grpc', status.UNAUTHENTICATED, undefined, 'UNAUTHORIZED'],
      ]);
  });

  it('refuses a project over its quota after decoding: 429 + Retry-After, RESOURCE_EXHAUSTED with RetryInfo', async () => {
    done.length = 0;
    accepted.length = 0;
    const res = await postHttp('Bearer full');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('7');
    const err = await callGrpc('Bearer full');
    expect(err?.code).toBe(status.RESOURCE_EXHAUSTED);
    expect(err?.metadata.get('grpc-status-details-bin')).toHaveLength(1);
    expect(accepted).toHaveLength(0);
    await expect
      .poll(() => done.map((d) => [d.protocol, d.projectId, d.spans, d.error?.code]), { timeout: 5_000 })
      .toEqual([
        ['http', 'p2', 10, 'RATE_LIMITED'],
        ['grpc', 'p2', 10, 'RATE_LIMITED'],
      ]);
  });
});
