import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Metadata } from '@grpc/grpc-js';
import { OTLPTraceExporter as OtlpGrpcExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { startChServer, type ChServerProcess } from '@telltale/chserver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricValue } from './harness/metricValue.js';
import { promtool } from './harness/promtool.js';
import { runRequest } from './harness/RunSender.js';
import { runCli } from './harness/runCli.js';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

const METRICS_TOKEN = 'ops-test-metrics-token-0123456789';
const PROJECT = 'ops-secret-project';

/** Polls `read` until `done` holds or `timeoutMs` passes; returns the last value read. */
async function pollUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    value = await read();
  }
  return value;
}

async function getText(url: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const res = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) });
  return { status: res.status, text: await res.text() };
}

/** One request with one valid span and two with a zero trace id (rejected one by one: partial success). */
function partlyInvalidRequest(): string {
  const now = BigInt(Date.now()) * 1_000_000n;
  const span = (traceId: string, spanId: string): object => ({
    traceId,
    spanId,
    name: 'step',
    startTimeUnixNano: String(now),
    endTimeUnixNano: String(now + 1000n),
  });
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'ops-test' } }] },
        scopeSpans: [
          {
            spans: [
              span('5b8efff798038103d269b633813fc60c', '00000000000000a1'),
              span('0'.repeat(32), '00000000000000a2'),
              span('0'.repeat(32), '00000000000000a3'),
            ],
          },
        ],
      },
    ],
  });
}

describe('probes and metrics of a server with --auth keys over a shared ClickHouse', () => {
  const chDir = mkdtempSync(join(tmpdir(), 'telltale-ops-ch-'));
  let clickhouse: ChServerProcess;
  let telltale: TelltaleProcess;
  let remote: string[];
  let ingestKey: string;

  beforeAll(async () => {
    clickhouse = await startChServer({ dataDir: chDir });
    remote = ['--clickhouse-url', clickhouse.url];
    telltale = await TelltaleProcess.start({ args: ['--auth', 'keys', '--metrics-token', METRICS_TOKEN, ...remote] });
    const created = await runCli(['projects', 'create', PROJECT, ...remote]);
    expect(created.code, created.stderr).toBe(0);
    const key = await runCli(['keys', 'create', '--project', PROJECT, '--kind', 'ingest', ...remote]);
    expect(key.code, key.stderr).toBe(0);
    ingestKey = key.stdout.trim();
  });
  afterAll(async () => {
    await telltale?.dispose();
    await clickhouse?.dispose();
    rmSync(chDir, { recursive: true, force: true });
  });

  const post = (body: string, key: string | null = ingestKey): Promise<Response> =>
    fetch(`${telltale.url}/v1/traces`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', ...(key === null ? {} : { authorization: `Bearer ${key}` }) },
      signal: AbortSignal.timeout(20_000),
    });
  const metrics = async (): Promise<string> => {
    const res = await getText(`${telltale.url}/metrics`, { authorization: `Bearer ${METRICS_TOKEN}` });
    expect(res.status).toBe(200);
    return res.text;
  };

  it('answers /healthz and /readyz without a key, saying nothing of projects, while the API wants one', async () => {
    // the key cache reloads within a second; the probes need no key at all
    const health = await getText(`${telltale.url}/healthz`);
    expect(health.status).toBe(200);
    const healthBody = JSON.parse(health.text) as { status: string; eventLoopLag: { p99Ms: number } };
    expect(healthBody.status).toBe('ok');
    expect(typeof healthBody.eventLoopLag.p99Ms).toBe('number');
    const ready = await pollUntil(
      () => getText(`${telltale.url}/readyz`),
      (r) => r.status === 200,
      30_000,
    );
    expect(ready.status, ready.text).toBe(200);
    expect(JSON.parse(ready.text)).toMatchObject({
      status: 'ready',
      reasons: [],
      checks: { storage: 'ok', migrations: 'applied', runFacts: { state: 'caught_up' } },
    });
    for (const body of [health.text, ready.text]) expect(body).not.toContain(PROJECT);
    expect((await getText(`${telltale.url}/api/v1/runs`)).status).toBe(401);
    expect((await getText(`${telltale.url}/api/v1/health`)).status).toBe(401);
  });

  it('serves /metrics on the main port only to the --metrics-token bearer', async () => {
    expect((await getText(`${telltale.url}/metrics`)).status).toBe(401);
    expect((await getText(`${telltale.url}/metrics`, { authorization: `Bearer ${ingestKey}` })).status).toBe(401);
    const text = await metrics();
    expect(text).toContain('# TYPE telltale_otlp_requests_total counter');
    expect(text).toContain('process_cpu_seconds_total');
  });

  it('counts what was sent: accepted spans, rejected spans by reason, refused requests by outcome; the output passes promtool', async () => {
    const runs = 5;
    const spansPerRun = 40;
    for (let i = 0; i < runs; i++) expect((await post(runRequest(`ops-run-${i}`, spansPerRun))).status).toBe(200);
    const partial = await post(partlyInvalidRequest());
    expect(partial.status).toBe(200);
    expect(JSON.stringify(await partial.json())).toContain('rejectedSpans');
    expect((await post('{"resourceSpans": [')).status).toBe(400);
    expect((await post(runRequest('ops-no-key', 3), null)).status).toBe(401);
    const accepted = runs * spansPerRun + 1;

    const text = await metrics();
    expect(metricValue(text, 'telltale_otlp_spans_accepted_total', { protocol: 'http' })).toBe(accepted);
    expect(metricValue(text, 'telltale_otlp_spans_accepted_total', { protocol: 'grpc' })).toBe(0);
    expect(metricValue(text, 'telltale_otlp_spans_rejected_total', { reason: 'invalid' })).toBe(2);
    expect(metricValue(text, 'telltale_otlp_spans_rejected_total', { reason: 'out_of_time_range' })).toBe(0);
    expect(metricValue(text, 'telltale_otlp_requests_total', { protocol: 'http', outcome: 'accepted' })).toBe(runs);
    expect(metricValue(text, 'telltale_otlp_requests_total', { protocol: 'http', outcome: 'partially_accepted' })).toBe(
      1,
    );
    expect(metricValue(text, 'telltale_otlp_requests_total', { protocol: 'http', outcome: 'bad_request' })).toBe(1);
    expect(metricValue(text, 'telltale_otlp_requests_total', { protocol: 'http', outcome: 'unauthorized' })).toBe(1);
    expect(metricValue(text, 'telltale_spool_max_bytes')).toBe(1024 ** 3);
    // every accepted request (partly accepted included) timed in each stage; the worker's heap reported
    for (const stage of ['read', 'hold', 'wait', 'process', 'commit'])
      expect(metricValue(text, 'telltale_otlp_stage_duration_seconds_count', { stage }), stage).toBe(runs + 1);
    expect(metricValue(text, 'telltale_otlp_stage_duration_seconds_sum', { stage: 'process' })).toBeGreaterThan(0);
    expect(metricValue(text, 'telltale_ingest_worker_heap_bytes')).toBeGreaterThan(1 << 20);
    // remote storage reports its own memory: no embedded engine's gauges here
    expect(text).not.toContain('telltale_engine_');
    expect(text).not.toContain(PROJECT);

    // the drainer stores every accepted span; the spool empties
    const drained = await pollUntil(
      metrics,
      (t) => metricValue(t, 'telltale_drain_spans_stored_total') === accepted,
      30_000,
    );
    expect(metricValue(drained, 'telltale_drain_spans_stored_total')).toBe(accepted);
    expect(metricValue(drained, 'telltale_drain_batch_duration_seconds_count')).toBeGreaterThanOrEqual(1);
    expect(metricValue(drained, 'telltale_spool_backlog_spans')).toBe(0);
    expect(metricValue(drained, 'telltale_spool_records')).toBe(0);
    expect(metricValue(drained, 'telltale_spool_oldest_record_age_seconds')).toBe(0);
    expect(metricValue(drained, 'telltale_drain_insert_errors_total')).toBe(0);

    const checked = await promtool(['check', 'metrics'], drained);
    expect(checked.code, `${checked.stdout}${checked.stderr}`).toBe(0);
  });

  it('counts OTLP/gRPC exports of the official exporter under protocol grpc', async () => {
    const metadata = new Metadata();
    metadata.set('authorization', `Bearer ${ingestKey}`);
    const provider = new BasicTracerProvider({
      spanProcessors: [
        new BatchSpanProcessor(new OtlpGrpcExporter({ url: `http://${telltale.grpcAddress}`, metadata }), {
          maxExportBatchSize: 25,
        }),
      ],
    });
    const tracer = provider.getTracer('ops-test');
    const spans = 60;
    for (let i = 0; i < spans; i++) tracer.startSpan(`grpc step ${i}`).end();
    await provider.forceFlush();
    await provider.shutdown();
    const text = await metrics();
    expect(metricValue(text, 'telltale_otlp_spans_accepted_total', { protocol: 'grpc' })).toBe(spans);
    expect(metricValue(text, 'telltale_otlp_requests_total', { protocol: 'grpc', outcome: 'accepted' })).toBe(3);
  });

  it('times API requests by route pattern, not by raw URL, those refused for their key too', async () => {
    expect((await getText(`${telltale.url}/api/v1/no-such-route`)).status).toBe(401);
    const text = await metrics();
    const count = (route: string): number | undefined =>
      metricValue(text, 'telltale_api_request_duration_seconds_count', { method: 'GET', route, code: '401' });
    expect(count('/api/v1/runs')).toBeGreaterThanOrEqual(1);
    expect(count('/api/v1/health')).toBeGreaterThanOrEqual(1);
    expect(count('unmatched')).toBe(1);
    expect(text).not.toMatch(/route="\/api\/v1\/runs\/ops-/);
  });

  it('turns /readyz 503 with its reason while storage is down, /healthz still 200, and ready again once it is back', async () => {
    await clickhouse.stop('SIGKILL');
    const down = await pollUntil(
      () => getText(`${telltale.url}/readyz`),
      (r) => r.status === 503,
      20_000,
    );
    expect(down.status, down.text).toBe(503);
    const body = JSON.parse(down.text) as { status: string; reasons: string[]; checks: { storage: string } };
    expect(body.status).toBe('not_ready');
    expect(body.checks.storage).toBe('unreachable');
    expect(body.reasons.join('\n')).toMatch(/^storage unreachable/m);
    expect((await getText(`${telltale.url}/healthz`)).status).toBe(200);

    await clickhouse.start();
    const up = await pollUntil(
      () => getText(`${telltale.url}/readyz`),
      (r) => r.status === 200,
      30_000,
    );
    expect(up.status, up.text).toBe(200);
  });
});

describe('metrics access and the run facts catch-up of an embedded server', () => {
  it('does not serve /metrics on the main port under --auth keys without a token; --metrics-port serves it without auth', async () => {
    const telltale = await TelltaleProcess.start({ args: ['--auth', 'keys', '--metrics-port', '0'] });
    try {
      expect((await getText(`${telltale.url}/metrics`)).status).toBe(404);
      expect((await getText(`${telltale.url}/healthz`)).status).toBe(200);
      const listening = JSON.parse(await telltale.waitForLog((l) => l.includes('"telltale listening"'))) as {
        metrics?: string;
      };
      expect(listening.metrics).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const scraped = await getText(`${listening.metrics}/metrics`);
      expect(scraped.status).toBe(200);
      expect(scraped.text).toContain('telltale_spool_bytes');
      expect((await getText(`${listening.metrics}/readyz`)).status).toBe(200);
      expect((await getText(`${listening.metrics}/api/v1/runs`)).status).toBe(404);
    } finally {
      await telltale.dispose();
    }
  });

  it('listens first and catches up the run facts a killed server left pending, with progress in the log', async () => {
    const telltale = await TelltaleProcess.start({ args: ['--auth', 'none', '--grpc-port', 'off'] });
    try {
      const send = async (body: string): Promise<void> => {
        const res = await fetch(`${telltale.url}/v1/traces`, {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json' },
        });
        expect(res.status).toBe(200);
      };
      const storedSpans = (spans: number): Promise<{ text: string }> =>
        pollUntil(
          () => getText(`${telltale.url}/metrics`),
          (r) => metricValue(r.text, 'telltale_drain_spans_stored_total') === spans,
          30_000,
        );
      // runs whole in one request, root included: their facts come with them (the ingest worker computes them)
      const whole = 5;
      for (let i = 0; i < whole; i++) await send(runRequest(`whole-${i}`, 3));
      expect(metricValue((await storedSpans(whole * 3)).text, 'telltale_run_facts_pending_runs')).toBe(0);
      const finalised = await telltale.getJson<{ total: number }>('/api/v1/runs?limit=1');
      expect(finalised.body.total).toBe(whole);
      const byPath = (await getText(`${telltale.url}/metrics`)).text;
      expect(metricValue(byPath, 'telltale_run_facts_finalised_runs_total', { path: 'ingest' })).toBe(whole);
      expect(metricValue(byPath, 'telltale_run_facts_finalised_runs_total', { path: 'sql' })).toBe(0);
      // runs whose root has not come: stored, but not finalised (the background waits 10 s of quiet)
      const runs = 30;
      for (let i = 0; i < runs; i++) await send(runRequest(`catch-up-${i}`, 3, Date.now(), 1));
      const stored = await storedSpans(whole * 3 + runs * 2);
      expect(metricValue(stored.text, 'telltale_run_facts_pending_runs')).toBe(runs);
      await telltale.kill('SIGKILL');
      const from = telltale.logs.length;
      await telltale.restart();
      const caughtUp = JSON.parse(await telltale.waitForLog((l) => l.includes('"run facts caught up"'), from)) as {
        runs: number;
      };
      expect(caughtUp.runs).toBe(runs);
      expect(telltale.logs.slice(from).some((l) => l.includes(`run facts catch-up: ${runs}/${runs} runs (100%)`))).toBe(
        true,
      );
      expect((await getText(`${telltale.url}/readyz`)).status).toBe(200);
      const listed = await telltale.getJson<{ total: number }>('/api/v1/runs?limit=1');
      expect(listed.body.total).toBe(whole + runs);
    } finally {
      await telltale.dispose();
    }
  });
});
