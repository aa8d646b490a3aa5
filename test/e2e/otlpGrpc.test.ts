import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, credentials, Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { startChServer, type ChServerProcess } from '@telltale/chserver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './harness/runCli.js';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

const EXPORT = '/opentelemetry.proto.collector.trace.v1.TraceService/Export';
const GZIP = 2; // grpc-js compressionAlgorithms.gzip

interface CallResult {
  code: status;
  details: string;
  /** Seconds from the google.rpc.RetryInfo in `grpc-status-details-bin`, if any. */
  retryDelaySeconds: number | undefined;
  response: Buffer | undefined;
}

/** Reads RetryInfo.retry_delay.seconds out of a google.rpc.Status (field 3 Any → field 2 value → field 1 Duration → field 1). */
function retryDelayOf(statusBytes: Buffer | undefined): number | undefined {
  if (statusBytes === undefined) return undefined;
  const text = statusBytes.toString('latin1');
  const at = text.indexOf('type.googleapis.com/google.rpc.RetryInfo');
  if (at < 0) return undefined;
  // after the type url: 0x12 <len> (RetryInfo) 0x0a <len> (Duration) 0x08 <seconds varint>
  const rest = statusBytes.subarray(at + 'type.googleapis.com/google.rpc.RetryInfo'.length);
  expect([rest[0], rest[2], rest[4]]).toEqual([0x12, 0x0a, 0x08]);
  return rest[5];
}

/** One raw Export call with bytes of our choosing (the official exporter never sends malformed ones). */
function exportCall(address: string, body: Buffer, opts: { key?: string; gzip?: boolean } = {}): Promise<CallResult> {
  const client = new Client(
    address,
    credentials.createInsecure(),
    opts.gzip === true ? { 'grpc.default_compression_algorithm': GZIP } : {},
  );
  const metadata = new Metadata();
  if (opts.key !== undefined) metadata.set('authorization', `Bearer ${opts.key}`);
  return new Promise((resolve) => {
    client.makeUnaryRequest(
      EXPORT,
      (b: Buffer) => b,
      (b: Buffer) => b,
      body,
      metadata,
      {},
      (err: ServiceError | null, response?: Buffer) => {
        client.close();
        const details = err?.metadata.get('grpc-status-details-bin')[0];
        resolve({
          code: err?.code ?? status.OK,
          details: err?.details ?? '',
          retryDelaySeconds: retryDelayOf(typeof details === 'string' ? Buffer.from(details) : details),
          response,
        });
      },
    );
  });
}

/** A real OTLP/protobuf ExportTraceServiceRequest: one run of `spans` spans, made by the OTel SDK. */
function exportRequest(runId: string, spans: number): Buffer {
  const memory = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(memory)] });
  const tracer = provider.getTracer('grpc-e2e');
  for (let i = 0; i < spans; i++)
    tracer.startSpan(i === 0 ? 'agent run' : `step ${i}`, { attributes: { 'telltale.run.id': runId } }).end();
  return Buffer.from(ProtobufTraceSerializer.serializeRequest(memory.getFinishedSpans())!);
}

async function storedSpans(telltale: TelltaleProcess, runId: string, key?: string): Promise<number> {
  const res = await fetch(`${telltale.url}/api/v1/runs/${runId}`, {
    headers: key === undefined ? {} : { authorization: `Bearer ${key}` },
  });
  if (res.status === 404) return 0;
  expect(res.status).toBe(200);
  return ((await res.json()) as { spans: unknown[] }).spans.length;
}

describe('OTLP/gRPC receiver: status codes', () => {
  let telltale: TelltaleProcess;
  beforeAll(async () => {
    telltale = await TelltaleProcess.start({ args: ['--max-body-bytes', '65536'] });
  });
  afterAll(async () => {
    await telltale.dispose();
  });

  it('stores a valid request, plain or gzip, and answers with an empty ExportTraceServiceResponse', async () => {
    for (const gzip of [false, true]) {
      const runId = `grpc-ok-${gzip}`;
      const result = await exportCall(telltale.grpcAddress, exportRequest(runId, 5), { gzip });
      expect(result).toMatchObject({ code: status.OK });
      expect(result.response?.length).toBe(0);
      expect(await storedSpans(telltale, runId)).toBe(5);
    }
  });

  it('INVALID_ARGUMENT for a malformed or truncated message, with the reason', async () => {
    const malformed = await exportCall(telltale.grpcAddress, Buffer.from([0x0a, 0xff, 0xff, 0xff, 0x0f, 1, 2, 3]));
    expect(malformed.code).toBe(status.INVALID_ARGUMENT);
    expect(malformed.details).toMatch(/length \d+ exceeds/);
    const whole = exportRequest('grpc-truncated', 3);
    const truncated = await exportCall(telltale.grpcAddress, whole.subarray(0, whole.length - 7));
    expect(truncated.code).toBe(status.INVALID_ARGUMENT);
    expect(await storedSpans(telltale, 'grpc-truncated')).toBe(0);
  });

  it('RESOURCE_EXHAUSTED for a message over --max-body-bytes, and for a gzip bomb, counted after inflating', async () => {
    const big = exportRequest('grpc-big', 1_000);
    expect(big.length).toBeGreaterThan(65_536);
    expect((await exportCall(telltale.grpcAddress, big)).code).toBe(status.RESOURCE_EXHAUSTED);
    // 64 MiB of zeros: ~64 KiB on the wire, past the limit once inflated
    const bomb = await exportCall(telltale.grpcAddress, Buffer.alloc(64 * 1024 * 1024), { gzip: true });
    expect(bomb.code).toBe(status.RESOURCE_EXHAUSTED);
    // and the server keeps serving
    expect((await exportCall(telltale.grpcAddress, exportRequest('grpc-after-bomb', 2))).code).toBe(status.OK);
    expect(await storedSpans(telltale, 'grpc-big')).toBe(0);
  });
});

describe('OTLP/gRPC receiver with API keys', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'telltale-grpc-auth-'));
  let telltale: TelltaleProcess;
  const keys = { aIngest: '', aRead: '', bRead: '', quota: '' };

  async function createKey(project: string, kind: 'ingest' | 'read'): Promise<string> {
    const { code, stdout, stderr } = await runCli([
      'keys',
      'create',
      '--project',
      project,
      '--kind',
      kind,
      '--data-dir',
      dataDir,
    ]);
    expect(code, stderr).toBe(0);
    return stdout.trim();
  }

  beforeAll(async () => {
    for (const args of [['a'], ['b'], ['quota', '--max-spans-per-second', '10']]) {
      const created = await runCli(['projects', 'create', ...args, '--data-dir', dataDir]);
      expect(created.code, created.stderr).toBe(0);
    }
    keys.aIngest = await createKey('a', 'ingest');
    keys.aRead = await createKey('a', 'read');
    keys.bRead = await createKey('b', 'read');
    keys.quota = await createKey('quota', 'ingest');
    telltale = await TelltaleProcess.start({ dataDir, args: ['--auth', 'keys'] });
  });
  afterAll(async () => {
    await telltale.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('UNAUTHENTICATED without a key or with a wrong one; PERMISSION_DENIED with a read key', async () => {
    const body = exportRequest('grpc-nokey', 2);
    expect((await exportCall(telltale.grpcAddress, body)).code).toBe(status.UNAUTHENTICATED);
    expect((await exportCall(telltale.grpcAddress, body, { key: 'tt_ingest_0000000000000000_nope' })).code).toBe(
      status.UNAUTHENTICATED,
    );
    expect((await exportCall(telltale.grpcAddress, body, { key: keys.aRead })).code).toBe(status.PERMISSION_DENIED);
    expect(await storedSpans(telltale, 'grpc-nokey', keys.aRead)).toBe(0);
  });

  it("stores into the key's project: project b cannot read it", async () => {
    expect((await exportCall(telltale.grpcAddress, exportRequest('grpc-a', 4), { key: keys.aIngest })).code).toBe(
      status.OK,
    );
    expect(await storedSpans(telltale, 'grpc-a', keys.aRead)).toBe(4);
    expect(await storedSpans(telltale, 'grpc-a', keys.bRead)).toBe(0);
  });

  it('RESOURCE_EXHAUSTED with a RetryInfo of 1–3 s over the project quota', async () => {
    let result: CallResult | undefined;
    for (let i = 0; i < 10 && result?.code !== status.RESOURCE_EXHAUSTED; i++) {
      result = await exportCall(telltale.grpcAddress, exportRequest(`grpc-quota-${i}`, 8), { key: keys.quota });
    }
    expect(result?.code).toBe(status.RESOURCE_EXHAUSTED);
    expect(result?.details).toMatch(/quota/);
    expect(result?.retryDelaySeconds).toBeGreaterThanOrEqual(1);
    expect(result?.retryDelaySeconds).toBeLessThanOrEqual(3);
  });
});

describe('OTLP/gRPC receiver when storage is behind', () => {
  let ch: ChServerProcess;
  let telltale: TelltaleProcess;
  beforeAll(async () => {
    ch = await startChServer();
    telltale = await TelltaleProcess.start({
      args: ['--clickhouse-url', ch.url, '--spool-max-bytes', String(1024 * 1024)],
    });
  });
  afterAll(async () => {
    await telltale.dispose();
    await ch.dispose();
  });

  it('UNAVAILABLE with a RetryInfo of 1–3 s once the spool is full; what was acknowledged is stored after recovery', async () => {
    await ch.setMode({ mode: 'refuse' });
    const acked: string[] = [];
    let refused: CallResult | undefined;
    for (let i = 0; i < 400 && refused === undefined; i++) {
      const runId = `grpc-full-${i}`;
      const result = await exportCall(telltale.grpcAddress, exportRequest(runId, 20));
      if (result.code === status.OK) acked.push(runId);
      else refused = result;
    }
    expect(refused).toMatchObject({
      code: status.UNAVAILABLE,
      details: expect.stringMatching(/spool is full/) as unknown,
    });
    expect(refused?.retryDelaySeconds).toBeGreaterThanOrEqual(1);
    expect(refused?.retryDelaySeconds).toBeLessThanOrEqual(3);
    expect(acked.length).toBeGreaterThan(5);

    await ch.setMode({ mode: 'ok' });
    for (const runId of [acked[0]!, acked.at(-1)!]) {
      await expect.poll(() => storedSpans(telltale, runId), { timeout: 20_000 }).toBe(20);
    }
  });
});
