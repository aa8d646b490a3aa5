import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, credentials, Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { WebhookReceiver } from '@telltale/alerts';
import { startChServer, type ChServerProcess } from '@telltale/chserver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './harness/runCli.js';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

function otlpJson(runId: string): string {
  const now = BigInt(Date.now()) * 1_000_000n;
  const span = (spanId: string, name: string, parentSpanId?: string): Record<string, unknown> => ({
    traceId: '5b8efff798038103d269b633813fc60c',
    spanId,
    ...(parentSpanId === undefined ? {} : { parentSpanId }),
    name,
    startTimeUnixNano: String(now),
    endTimeUnixNano: String(now + 1_000_000n),
    attributes: [{ key: 'telltale.run.id', value: { stringValue: runId } }],
  });
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'secrets-e2e' } }] },
        scopeSpans: [
          { spans: [span('a1a1a1a1a1a1a1a1', 'agent'), span('b2b2b2b2b2b2b2b2', 'tool', 'a1a1a1a1a1a1a1a1')] },
        ],
      },
    ],
  });
}

/** One OTLP/gRPC Export of `spans` spans (made by the OTel SDK) with `key`; resolves with the gRPC status code. */
function grpcExport(address: string, runId: string, spans: number, key: string): Promise<status> {
  const memory = new InMemorySpanExporter();
  const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(memory)] }).getTracer(
    'secrets-e2e',
  );
  for (let i = 0; i < spans; i++)
    tracer.startSpan(i === 0 ? 'agent run' : `step ${i}`, { attributes: { 'telltale.run.id': runId } }).end();
  const body = Buffer.from(ProtobufTraceSerializer.serializeRequest(memory.getFinishedSpans())!);
  const client = new Client(address, credentials.createInsecure());
  const metadata = new Metadata();
  metadata.set('authorization', `Bearer ${key}`);
  return new Promise((resolve) => {
    client.makeUnaryRequest(
      '/opentelemetry.proto.collector.trace.v1.TraceService/Export',
      (b: Buffer) => b,
      (b: Buffer) => b,
      body,
      metadata,
      {},
      (err: ServiceError | null) => {
        client.close();
        resolve(err?.code ?? status.OK);
      },
    );
  });
}

const PASSWORD = 'ch-Pa55word-9d2f71';
const URL_PASSWORD = 'url-Pa55word-41c7e0';
const ADMIN_KEY = 'admin-7c1e0b9f4d2a68e3b5f1c0d9';
const METRICS_TOKEN = 'metrics-e4b08a1d93c2f57a';

/**
 * A full scenario with every kind of secret in play — ClickHouse password
 * (variable and URL), ingest and read keys, a wrong key, a webhook signing
 * secret — including failures (wrong key, ClickHouse refusing), at debug
 * level: none of them may appear anywhere in the server's output, and the
 * access lines must be there, as JSON.
 */
describe('no secret reaches the logs (auth keys, remote ClickHouse, debug level)', () => {
  const chDir = mkdtempSync(join(tmpdir(), 'telltale-secrets-ch-'));
  let clickhouse: ChServerProcess;
  let telltale: TelltaleProcess;
  let receiver: WebhookReceiver;
  let remote: string[];
  let chUrl: string;

  beforeAll(async () => {
    clickhouse = await startChServer({ dataDir: chDir });
    receiver = await WebhookReceiver.start();
    const url = new URL(clickhouse.url);
    url.username = 'telltale';
    url.password = URL_PASSWORD;
    chUrl = url.toString();
    remote = ['--clickhouse-url', clickhouse.url];
    telltale = await TelltaleProcess.start({
      args: [
        '--auth',
        'keys',
        '--auth-refresh-seconds',
        '1',
        '--log-level',
        'debug',
        '--clickhouse-url',
        chUrl,
        '--alerts-allow-private',
        '127.0.0.0/8',
      ],
      env: {
        TELLTALE_CLICKHOUSE_USER: 'telltale',
        TELLTALE_CLICKHOUSE_PASSWORD: PASSWORD,
        TELLTALE_ADMIN_KEY: ADMIN_KEY,
        TELLTALE_METRICS_TOKEN: METRICS_TOKEN,
      },
    });
  });
  afterAll(async () => {
    await telltale?.dispose();
    await receiver?.close();
    await clickhouse?.dispose();
    rmSync(chDir, { recursive: true, force: true });
  });

  it('logs access lines as JSON and none of the secrets in use', { timeout: 120_000 }, async () => {
    expect((await runCli(['projects', 'create', 'vault', ...remote])).code).toBe(0);
    const ingest = (
      await runCli(['keys', 'create', '--project', 'vault', '--kind', 'ingest', ...remote])
    ).stdout.trim();
    const read = (await runCli(['keys', 'create', '--project', 'vault', '--kind', 'read', ...remote])).stdout.trim();
    expect(ingest).toMatch(/^tt_ingest_/);
    expect(read).toMatch(/^tt_read_/);
    const wrong = `tt_ingest_${ingest.split('_')[2]!}_${'Z'.repeat(43)}`;
    const post = (key: string, runId: string): Promise<Response> =>
      fetch(`${telltale.url}/v1/traces`, {
        method: 'POST',
        body: otlpJson(runId),
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      });
    const api = (path: string, init: RequestInit = {}, key = read): Promise<Response> =>
      fetch(`${telltale.url}/api/v1${path}`, {
        ...init,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      });

    // the server picks up the new keys within its refresh interval (1 s)
    const deadline = Date.now() + 10_000;
    let accepted = await post(ingest, 'vault-run-1');
    while (accepted.status === 401 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      accepted = await post(ingest, 'vault-run-1');
    }
    expect(accepted.status).toBe(200);
    expect((await post(wrong, 'vault-run-x')).status).toBe(401);
    expect(await grpcExport(telltale.grpcAddress, 'vault-run-g', 3, ingest)).toBe(status.OK);
    expect(await grpcExport(telltale.grpcAddress, 'vault-run-y', 1, wrong)).toBe(status.UNAUTHENTICATED);
    expect((await api('/runs/vault-run-1')).status).toBe(200);
    expect((await api('/runs?limit=5')).status).toBe(200);
    expect((await api('/runs', {}, wrong)).status).toBe(401);
    expect((await api('/runs', {}, ingest)).status).toBe(403);

    // the admin API answers a new key's secret once; a wrong admin key is refused
    const adminCreated = await api(
      '/admin/projects/vault/keys',
      { method: 'POST', body: JSON.stringify({ kind: 'read' }) },
      ADMIN_KEY,
    );
    expect(adminCreated.status).toBe(201);
    const adminRead = ((await adminCreated.json()) as { secret: string }).secret;
    expect(adminRead).toMatch(/^tt_read_/);
    expect((await api('/admin/projects', {}, `${ADMIN_KEY}x`)).status).toBe(401);

    // the metrics token opens /metrics on the main port, a wrong one does not
    expect(
      (await fetch(`${telltale.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).status,
    ).toBe(200);
    expect(
      (await fetch(`${telltale.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}x` } })).status,
    ).toBe(401);

    const created = await api('/alerts/destinations', {
      method: 'POST',
      body: JSON.stringify({ name: 'on-call', url: receiver.url }),
    });
    expect(created.status).toBe(201);
    const { destination, secret } = (await created.json()) as { destination: { id: string }; secret: string };
    expect(secret).toMatch(/^whsec_/);
    expect((await api(`/alerts/destinations/${destination.id}/test`, { method: 'POST' })).status).toBe(200);
    await receiver.waitFor(1, 20_000);

    // storage refuses: accepted spans stay in the spool (the insert fails and is logged), a read fails
    await clickhouse.setMode({ mode: 'refuse' });
    const from = telltale.logs.length;
    expect((await post(ingest, 'vault-run-2')).status).toBe(200);
    await telltale.waitForLog((line) => line.includes('storing spooled spans failed'), from, 30_000);
    expect((await api('/health')).status).toBe(503);
    await clickhouse.setMode({ mode: 'ok' });
    expect(await telltale.stop()).toBe(0);

    const output = telltale.logs.join('\n');
    const secrets = {
      PASSWORD,
      URL_PASSWORD,
      basicAuth: Buffer.from(`telltale:${PASSWORD}`).toString('base64'),
      basicAuthUrl: Buffer.from(`telltale:${URL_PASSWORD}`).toString('base64'),
      ingest,
      ingestSecret: ingest.split('_')[3]!,
      read,
      readSecret: read.split('_')[3]!,
      wrongSecret: wrong.split('_')[3]!,
      webhookSecret: secret,
      ADMIN_KEY,
      METRICS_TOKEN,
      adminRead,
      adminReadSecret: adminRead.split('_')[3]!,
      webhookSecretBody: secret.slice('whsec_'.length),
    };
    for (const [name, value] of Object.entries(secrets))
      expect(output.includes(value), `${name} appears in the server output`).toBe(false);
    expect(output).toContain('storing spooled spans failed');

    // piped output: every stdout line is JSON (stderr carries nothing here)
    const entries = telltale.logs.map((line) => JSON.parse(line) as Record<string, unknown>);
    const listening = entries.find((e) => e.msg === 'telltale listening');
    expect(listening?.storage).toBe(clickhouse.url.replace(/\/?$/, '/'));

    const access = entries.filter((e) => e.msg === 'api request');
    const seen = access.map(
      (e) => `${String(e.method)} ${String(e.route ?? e.path)} ${String(e.status)} ${String(e.project)}`,
    );
    expect(seen).toEqual(
      expect.arrayContaining([
        'GET /api/v1/runs/:runId 200 vault',
        'GET /api/v1/runs 200 vault',
        'GET /api/v1/runs 401 undefined',
        'GET /api/v1/runs 403 undefined',
        'POST /api/v1/alerts/destinations 201 vault',
        'POST /api/v1/alerts/destinations/:destinationId/test 200 vault',
        'GET /api/v1/health 503 vault',
        'POST /api/v1/admin/projects/:projectId/keys 201 undefined',
        'GET /api/v1/admin/projects 401 undefined',
      ]),
    );
    expect(access).toHaveLength(9);
    // a request refused before routing is logged under the route it names
    expect(access.filter((e) => e.status === 401 || e.status === 403).every((e) => e.path === undefined)).toBe(true);
    for (const line of access) expect(line.durationMs).toEqual(expect.any(Number));

    const otlp = entries.filter((e) => e.msg === 'otlp request');
    expect(
      otlp.map((e) => `${String(e.protocol)} ${String(e.status)} ${String(e.spans)} ${String(e.project)}`),
    ).toEqual(
      expect.arrayContaining([
        'http 200 2 vault',
        'http 401 0 undefined',
        `grpc ${status.OK} 3 vault`,
        `grpc ${status.UNAUTHENTICATED} 0 undefined`,
      ]),
    );
    expect(otlp.every((e) => e.level === 20 && typeof e.bytes === 'number')).toBe(true);
  });
});
