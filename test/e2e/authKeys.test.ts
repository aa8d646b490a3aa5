import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { createTelltale, createTracerProvider } from '@telltale/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './harness/runCli.js';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

const KEY_PATTERN = /^tt_(ingest|read)_[0-9A-Za-z]{16}_[0-9A-Za-z]{43}\n$/;

/** An OTLP/JSON request with one run root span; its resource claims `claimedProject`. */
function otlpJson(runId: string, spans: number, claimedProject?: string): string {
  const now = BigInt(Date.now()) * 1_000_000n;
  return JSON.stringify({
    resourceSpans: [
      {
        resource: {
          attributes: [
            { key: 'service.name', value: { stringValue: 'auth-e2e' } },
            ...(claimedProject === undefined
              ? []
              : [{ key: 'telltale.project', value: { stringValue: claimedProject } }]),
          ],
        },
        scopeSpans: [
          {
            scope: { name: 'handmade' },
            spans: Array.from({ length: spans }, (_, i) => ({
              traceId: '7b8efff798038103d269b633813fc60c',
              spanId: (0x1000_0000_0000_0000n + BigInt(i) + BigInt(Math.floor(Math.random() * 1e9)) * 1000n)
                .toString(16)
                .padStart(16, '0'),
              name: i === 0 ? 'agent' : `step ${i}`,
              kind: 1,
              startTimeUnixNano: String(now + BigInt(i)),
              endTimeUnixNano: String(now + BigInt(i) + 1000n),
              attributes: [{ key: 'telltale.run.id', value: { stringValue: runId } }],
              status: { code: 1 },
            })),
          },
        ],
      },
    ],
  });
}

async function createKey(dataDir: string, project: string, kind: 'ingest' | 'read'): Promise<string> {
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
  expect(stdout).toMatch(KEY_PATTERN);
  return stdout.trim();
}

describe('telltale start --auth keys (real server process, keys made with the CLI)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'telltale-auth-'));
  let telltale: TelltaleProcess;
  const keys = { aIngest: '', aRead: '', bIngest: '', bRead: '', qIngest: '', revoked: '' };

  const post = (body: string, key?: string): Promise<Response> =>
    fetch(`${telltale.url}/v1/traces`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', ...(key === undefined ? {} : { authorization: `Bearer ${key}` }) },
    });
  const api = async <T>(path: string, key?: string): Promise<{ status: number; body: T; headers: Headers }> => {
    const res = await fetch(`${telltale.url}/api/v1${path}`, {
      headers: key === undefined ? {} : { authorization: `Bearer ${key}` },
    });
    return { status: res.status, body: (await res.json()) as T, headers: res.headers };
  };

  beforeAll(async () => {
    for (const args of [['a'], ['b'], ['quota', '--max-spans-per-second', '10']]) {
      const created = await runCli(['projects', 'create', ...args, '--data-dir', dataDir]);
      expect(created.code, created.stderr).toBe(0);
    }
    keys.aIngest = await createKey(dataDir, 'a', 'ingest');
    keys.aRead = await createKey(dataDir, 'a', 'read');
    keys.bIngest = await createKey(dataDir, 'b', 'ingest');
    keys.bRead = await createKey(dataDir, 'b', 'read');
    keys.qIngest = await createKey(dataDir, 'quota', 'ingest');
    keys.revoked = await createKey(dataDir, 'a', 'ingest');
    expect((await runCli(['keys', 'revoke', keys.revoked.split('_')[2]!, '--data-dir', dataDir])).code).toBe(0);
    telltale = await TelltaleProcess.start({ dataDir, args: ['--auth', 'keys'] });
  });
  afterAll(async () => {
    await telltale.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 401 with WWW-Authenticate: Bearer for a missing, malformed, unknown or revoked key, on OTLP and the API', async () => {
    const unknown = keys.aIngest.replace(/_[0-9A-Za-z]{16}_/, '_AAAAAAAAAAAAAAAA_');
    const wrongSecret = `${keys.aIngest.slice(0, -4)}zzzz`;
    for (const key of [undefined, 'nonsense', unknown, wrongSecret]) {
      const otlp = await post(otlpJson('nope', 1), key);
      expect(otlp.status, String(key)).toBe(401);
      expect(otlp.headers.get('www-authenticate')).toBe('Bearer');
      const read = await api<{ error: { code: string } }>('/runs', key?.replace('tt_ingest_', 'tt_read_'));
      expect(read.status).toBe(401);
      expect(read.headers.get('www-authenticate')).toBe('Bearer');
      expect(read.body.error.code).toBe('UNAUTHORIZED');
    }
    const revoked = await post(otlpJson('nope', 1), keys.revoked);
    expect(revoked.status).toBe(401);
    expect(((await revoked.json()) as { code: number; message: string }).message).toMatch(/has been revoked/);
    // /health and /openapi.json are API routes too
    expect((await api('/health')).status).toBe(401);
    expect((await api('/openapi.json')).status).toBe(401);
  });

  it('answers 403 for a read key on /v1/traces and an ingest key on the API, saying which key is needed', async () => {
    const otlp = await post(otlpJson('nope', 1), keys.aRead);
    expect(otlp.status).toBe(403);
    const status = (await otlp.json()) as { code: number; message: string };
    expect(status.code).toBe(7); // PERMISSION_DENIED
    expect(status.message).toMatch(/a read key cannot send spans.*ingest key/);
    const read = await api<{ error: { code: string; message: string } }>('/runs', keys.aIngest);
    expect(read.status).toBe(403);
    expect(read.body.error).toEqual({
      code: 'FORBIDDEN',
      message: expect.stringMatching(/an ingest key cannot call the API.*read key/) as unknown,
    });
  });

  it("writes with A's ingest key into A only, whatever project the payload claims", async () => {
    const res = await post(otlpJson('run-of-a', 3, 'b'), keys.aIngest);
    expect(res.status).toBe(200);
    const ofA = await api<{ spans: { spanId: string }[] }>('/runs/run-of-a', keys.aRead);
    expect(ofA.status).toBe(200);
    expect(ofA.body.spans).toHaveLength(3);
    const listA = await api<{ total: number; runs: { runId: string }[] }>('/runs', keys.aRead);
    expect(listA.body.runs.map((r) => r.runId)).toContain('run-of-a');

    const ofB = await api<{ error: { code: string } }>('/runs/run-of-a', keys.bRead);
    expect(ofB.status).toBe(404);
    const listB = await api<{ total: number; runs: unknown[] }>('/runs', keys.bRead);
    expect(listB.status).toBe(200);
    expect(listB.body).toMatchObject({ total: 0, runs: [] });
    const reliabilityB = await api<{ runs: { success: number; failure: number; incomplete: number } }>(
      '/reliability/summary',
      keys.bRead,
    );
    expect(reliabilityB.body.runs).toEqual({ success: 0, failure: 0, incomplete: 0 });
    // the query string cannot pick a project either
    expect((await api('/runs?project=a', keys.bRead)).status).toBe(400);
  });

  it('accepts the official OTLP proto exporter configured by OTEL_EXPORTER_OTLP_HEADERS, and only with the key', async () => {
    async function exportRun(headersEnv: string | undefined): Promise<{ runId: string; result: ExportResult }> {
      const memory = new InMemorySpanExporter();
      const provider = createTracerProvider({ service: 'env-headers', exporter: memory });
      const tt = createTelltale({ tracerProvider: provider });
      const runId = await tt.run('env-agent', async (run) => {
        await tt.tool('search', { q: 'x' }, () => 'hit');
        return run.runId;
      });
      await provider.forceFlush();
      const spans = [...memory.getFinishedSpans()];
      await provider.shutdown();
      const before = process.env.OTEL_EXPORTER_OTLP_HEADERS;
      if (headersEnv === undefined) delete process.env.OTEL_EXPORTER_OTLP_HEADERS;
      else process.env.OTEL_EXPORTER_OTLP_HEADERS = headersEnv;
      try {
        // the exporter reads the environment when it is created
        const exporter = new OTLPTraceExporter({ url: `${telltale.url}/v1/traces` });
        const result = await new Promise<ExportResult>((resolve) => exporter.export(spans, resolve));
        await exporter.shutdown();
        return { runId, result };
      } finally {
        if (before === undefined) delete process.env.OTEL_EXPORTER_OTLP_HEADERS;
        else process.env.OTEL_EXPORTER_OTLP_HEADERS = before;
      }
    }
    const ok = await exportRun(`Authorization=Bearer%20${keys.bIngest}`);
    expect(ok.result).toEqual({ code: ExportResultCode.SUCCESS });
    const stored = await api<{ spans: { name: string }[] }>(`/runs/${ok.runId}`, keys.bRead);
    expect(stored.status).toBe(200);
    expect(stored.body.spans.map((s) => s.name).sort()).toEqual(['env-agent', 'search']);

    const refused = await exportRun(undefined);
    expect(refused.result.code).toBe(ExportResultCode.FAILED);
    expect(String(refused.result.error)).toMatch(/401|Unauthorized/);
    expect((await api(`/runs/${refused.runId}`, keys.bRead)).status).toBe(404);
  });

  it("refuses spans over the project's quota with 429 and a Retry-After of 1–3 s", async () => {
    // 10 spans/s holds 50: a 60-span batch into a full bucket passes, the next is refused
    expect((await post(otlpJson('quota-1', 60), keys.qIngest)).status).toBe(200);
    const refused = await post(otlpJson('quota-2', 5), keys.qIngest);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(3);
    expect(((await refused.json()) as { code: number }).code).toBe(8); // RESOURCE_EXHAUSTED
    // other projects are not held back
    expect((await post(otlpJson('run-of-a-2', 60), keys.aIngest)).status).toBe(200);
  });

  it('a CLI command on the data directory of the running server fails at once with a clear message', async () => {
    const started = Date.now();
    const { code, stderr } = await runCli(['keys', 'list', '--project', 'a', '--data-dir', dataDir], {
      timeoutMs: 20_000,
    });
    expect(code).toBe(1);
    expect(stderr).toContain(`telltale: the data directory ${dataDir} is in use by another process`);
    expect(stderr).not.toContain('DB::Exception'); // one message: refused before the engine opens the directory
    expect(stderr).toMatch(
      /Stop that server and retry, or run the server and this command against a shared ClickHouse/,
    );
    expect(Date.now() - started).toBeLessThan(15_000);
    // and the server is unharmed
    expect((await api('/runs', keys.aRead)).status).toBe(200);
  });
});

describe('binding beyond loopback', () => {
  it.each([[[]], [['--auth', 'none']]])('refuses to start on 0.0.0.0 without keys (%j)', async (extra) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'telltale-open-'));
    try {
      const { code, stdout, stderr } = await runCli(
        ['start', '--host', '0.0.0.0', '--port', '0', '--data-dir', dataDir, ...extra],
        { timeoutMs: 20_000 },
      );
      expect(code).toBe(2);
      expect(stderr).toMatch(/^telltale: refusing to listen on 0\.0\.0\.0 without authentication.*--auth keys/m);
      expect(stdout).not.toContain('telltale listening');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('starts on 0.0.0.0 with --auth keys', async () => {
    const telltale = await TelltaleProcess.start({ args: ['--host', '0.0.0.0', '--auth', 'keys'] });
    try {
      expect(telltale.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+$/);
      const res = await fetch(`${telltale.url.replace('0.0.0.0', '127.0.0.1')}/api/v1/runs`);
      expect(res.status).toBe(401);
    } finally {
      await telltale.dispose();
    }
  });

  it('refuses --demo with --auth keys (the demo has no key)', async () => {
    const { code, stderr } = await runCli(
      ['start', '--auth', 'keys', '--demo', '--port', '0', '--data-dir', join(tmpdir(), 'telltale-never')],
      { timeoutMs: 20_000 },
    );
    expect(code).toBe(2);
    expect(stderr).toContain('--demo sends spans without a key');
  });
});
