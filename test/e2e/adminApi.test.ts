import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExportResultCode } from '@opentelemetry/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportRunWithKey as exportRun, pollUntil } from './harness/exportRunWithKey.js';
import { runCli } from './harness/runCli.js';
import { apiWithKey } from './harness/apiWithKey.js';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

const ADMIN_KEY = 'e2e-admin-key-0123456789abcdefghijklmnop';
const REFRESH_S = 1;
/** A change must show within the refresh interval; the rest is room for a loaded machine. */
const DEADLINE_MS = REFRESH_S * 1000 + 8_000;
const KEY_PATTERN = /^tt_(ingest|read)_[0-9A-Za-z]{16}_[0-9A-Za-z]{43}$/;

describe('admin API and CLI over HTTP against a running embedded server (--auth keys --admin-key)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'telltale-admin-e2e-'));
  let telltale: TelltaleProcess;
  const server = (): string[] => ['--endpoint', telltale.url, '--admin-key', ADMIN_KEY];

  const admin = <T>(
    method: string,
    path: string,
    body?: unknown,
    key = ADMIN_KEY,
  ): Promise<{ status: number; body: T }> => apiWithKey<T>(telltale.url, method, path, key, body, 15_000);
  const runStatus = async (runId: string, readKey: string): Promise<number> =>
    (
      await fetch(`${telltale.url}/api/v1/runs/${runId}`, {
        headers: { authorization: `Bearer ${readKey}` },
        signal: AbortSignal.timeout(15_000),
      })
    ).status;

  beforeAll(async () => {
    telltale = await TelltaleProcess.start({
      dataDir,
      args: ['--auth', 'keys', '--admin-key', ADMIN_KEY, '--auth-refresh-seconds', String(REFRESH_S)],
    });
  });
  afterAll(async () => {
    await telltale?.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates a project and an ingest key through the API: OTLP is accepted with it, and refused once it is revoked', async () => {
    expect((await admin('POST', '/admin/projects', { id: 'fleet', maxSpansPerSecond: 1000 })).status).toBe(201);
    const ingest = await admin<{ key: { keyId: string }; secret: string }>('POST', '/admin/projects/fleet/keys', {
      kind: 'ingest',
      name: 'agents',
    });
    expect(ingest.status).toBe(201);
    expect(ingest.body.secret).toMatch(KEY_PATTERN);
    const read = await admin<{ secret: string }>('POST', '/admin/projects/fleet/keys', { kind: 'read' });
    // a project key never opens the admin API
    expect((await admin('GET', '/admin/projects', undefined, read.body.secret)).status).toBe(403);

    const accepted = await pollUntil(
      () => exportRun(telltale.url, ingest.body.secret),
      (r) => r.result.code === ExportResultCode.SUCCESS,
      DEADLINE_MS,
    );
    expect(accepted.value.result.code, String(accepted.value.result.error)).toBe(ExportResultCode.SUCCESS);
    expect(accepted.tookMs).toBeLessThan(DEADLINE_MS);
    const stored = await pollUntil(
      () => runStatus(accepted.value.runId, read.body.secret),
      (s) => s === 200,
      DEADLINE_MS,
    );
    expect(stored.value).toBe(200);

    expect((await admin('POST', `/admin/keys/${ingest.body.key.keyId}/revoke`)).status).toBe(200);
    const refused = await pollUntil(
      () => exportRun(telltale.url, ingest.body.secret),
      (r) => r.result.code === ExportResultCode.FAILED,
      DEADLINE_MS,
    );
    expect(refused.value.result.code).toBe(ExportResultCode.FAILED);
    expect(String(refused.value.result.error)).toMatch(/401|Unauthorized/);
    expect(refused.tookMs).toBeLessThan(DEADLINE_MS);
    expect(await runStatus(refused.value.runId, read.body.secret)).toBe(404);
  });

  it('the CLI manages projects and keys through --endpoint while the server holds the data directory', async () => {
    // the store is locked by the server: the direct mode cannot open it
    const direct = await runCli(['projects', 'list', '--data-dir', dataDir]);
    expect(direct.code).not.toBe(0);
    expect(direct.stderr).toMatch(/in use by another process/);

    const created = await runCli([
      'projects',
      'create',
      'cli-made',
      '--name',
      'Made by the CLI',
      '--max-spans-per-second',
      '300',
      ...server(),
    ]);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toContain('created project cli-made (at most 300 spans/s)');
    const again = await runCli(['projects', 'create', 'cli-made', ...server()]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('telltale: project cli-made exists already');
    const updated = await runCli(['projects', 'update', 'cli-made', '--max-spans-per-second', 'none', ...server()]);
    expect(updated.stdout).toContain('updated project cli-made: no ingest quota');
    const list = await runCli(['projects', 'list', ...server()]);
    expect(list.stdout).toMatch(/cli-made +Made by the CLI +— +\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ/);
    expect(list.stdout).toMatch(/fleet +fleet +1000 /);

    const key = await runCli([
      'keys',
      'create',
      '--project',
      'cli-made',
      '--kind',
      'read',
      '--name',
      'cli',
      ...server(),
    ]);
    expect(key.code, key.stderr).toBe(0);
    expect(key.stdout).toMatch(/^tt_read_[0-9A-Za-z]{16}_[0-9A-Za-z]{43}\n$/);
    const readKey = key.stdout.trim();
    const keyId = readKey.split('_')[2]!;
    expect(key.stderr).toContain(`Created read key ${keyId} for project cli-made. This is the only time it is shown`);
    const works = await pollUntil(
      async () =>
        (
          await fetch(`${telltale.url}/api/v1/runs`, {
            headers: { authorization: `Bearer ${readKey}` },
            signal: AbortSignal.timeout(15_000),
          })
        ).status,
      (s) => s === 200,
      DEADLINE_MS,
    );
    expect(works.value).toBe(200);

    const table = await runCli(['keys', 'list', '--project', 'cli-made', ...server()]);
    expect(table.stdout).toMatch(new RegExp(`${keyId} +read +cli +\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\dZ +—`));
    const json = JSON.parse(
      (await runCli(['keys', 'list', '--project', 'cli-made', '--json', ...server()])).stdout,
    ) as Record<string, unknown>[];
    expect(json.map((k) => Object.keys(k).sort())).toEqual([['createdAtMs', 'keyId', 'kind', 'name', 'projectId']]);
    expect(JSON.stringify(json)).not.toContain(readKey.split('_')[3]!);

    const revoked = await runCli(['keys', 'revoke', readKey, ...server()]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toMatch(new RegExp(`^revoked read key ${keyId} of project cli-made at \\d{4}-`));
    const refused = await pollUntil(
      async () =>
        (
          await fetch(`${telltale.url}/api/v1/runs`, {
            headers: { authorization: `Bearer ${readKey}` },
            signal: AbortSignal.timeout(15_000),
          })
        ).status,
      (s) => s === 401,
      DEADLINE_MS,
    );
    expect(refused.value).toBe(401);
  });

  it('the CLI says what is wrong: wrong or missing admin key, unknown project, unreachable server, --admin-key without --endpoint', async () => {
    const wrong = await runCli(['projects', 'list', '--endpoint', telltale.url, '--admin-key', 'x'.repeat(30)]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/refused the request \(401: invalid admin key\).*--admin-key or TELLTALE_ADMIN_KEY/);
    const fromEnv = await runCli(['projects', 'list', '--endpoint', telltale.url], {
      env: { TELLTALE_ADMIN_KEY: ADMIN_KEY },
    });
    expect(fromEnv.code, fromEnv.stderr).toBe(0);
    expect(fromEnv.stdout).toContain('cli-made');
    const missing = await runCli(['keys', 'list', '--project', 'fleet', '--endpoint', telltale.url], {
      env: { TELLTALE_ADMIN_KEY: '' },
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/missing admin key/);
    const ghost = await runCli(['keys', 'create', '--project', 'ghost', '--kind', 'ingest', ...server()]);
    expect(ghost.code).toBe(1);
    expect(ghost.stderr).toContain('telltale: no project ghost');
    const unreachable = await runCli([
      'projects',
      'list',
      '--endpoint',
      'http://127.0.0.1:1',
      '--admin-key',
      ADMIN_KEY,
    ]);
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toMatch(/cannot reach the Telltale server at http:\/\/127\.0\.0\.1:1/);
    const noEndpoint = await runCli(['projects', 'list', '--admin-key', ADMIN_KEY, '--data-dir', dataDir]);
    expect(noEndpoint.code).toBe(2);
    expect(noEndpoint.stderr).toMatch(/--admin-key is for a running server: add --endpoint/);
  });
});
