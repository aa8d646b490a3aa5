import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChServer, type ChServerProcess } from '@telltale/chserver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './harness/runCli.js';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

function otlpJson(runId: string): string {
  const now = BigInt(Date.now()) * 1_000_000n;
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'remote-e2e' } }] },
        scopeSpans: [
          {
            spans: [
              {
                traceId: '3b8efff798038103d269b633813fc60c',
                spanId: (0x3000_0000_0000_0000n + BigInt(Math.floor(Math.random() * 1e12))).toString(16),
                name: 'agent',
                startTimeUnixNano: String(now),
                endTimeUnixNano: String(now + 1000n),
                attributes: [{ key: 'telltale.run.id', value: { stringValue: runId } }],
              },
            ],
          },
        ],
      },
    ],
  });
}

/**
 * Two processes share one ClickHouse (remote mode): the CLI creates and
 * revokes keys while a server with --auth keys runs, and the server follows.
 */
describe('keys managed with the CLI while a server shares the ClickHouse', () => {
  const chDir = mkdtempSync(join(tmpdir(), 'telltale-shared-ch-'));
  let clickhouse: ChServerProcess;
  let telltale: TelltaleProcess;
  let remote: string[];

  beforeAll(async () => {
    clickhouse = await startChServer({ dataDir: chDir });
    remote = ['--clickhouse-url', clickhouse.url];
    telltale = await TelltaleProcess.start({ args: ['--auth', 'keys', '--auth-refresh-seconds', '1', ...remote] });
  });
  afterAll(async () => {
    await telltale?.dispose();
    await clickhouse?.dispose();
    rmSync(chDir, { recursive: true, force: true });
  });

  const post = (key: string, runId: string): Promise<Response> =>
    fetch(`${telltale.url}/v1/traces`, {
      method: 'POST',
      body: otlpJson(runId),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    });

  it('accepts a key the CLI creates while it runs, and refuses it within the refresh interval once revoked', async () => {
    expect((await runCli(['projects', 'create', 'shared', ...remote])).code).toBe(0);
    const created = await runCli(['keys', 'create', '--project', 'shared', '--kind', 'ingest', ...remote]);
    expect(created.code, created.stderr).toBe(0);
    const key = created.stdout.trim();
    const readKey = (
      await runCli(['keys', 'create', '--project', 'shared', '--kind', 'read', ...remote])
    ).stdout.trim();

    expect((await post(key, 'remote-run-1')).status).toBe(200);
    const run = await fetch(`${telltale.url}/api/v1/runs/remote-run-1`, {
      headers: { authorization: `Bearer ${readKey}` },
    });
    expect(run.status).toBe(200);

    const listed = await runCli(['keys', 'list', '--project', 'shared', ...remote]);
    expect(listed.stdout).toContain(key.split('_')[2]);
    const revoked = await runCli(['keys', 'revoke', key.split('_')[2]!, ...remote]);
    expect(revoked.code, revoked.stderr).toBe(0);
    const revokedAt = Date.now();
    let res = await post(key, 'remote-run-2');
    while (res.status === 200 && Date.now() - revokedAt < 10_000) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      res = await post(key, 'remote-run-2');
    }
    expect(res.status).toBe(401);
    expect(Date.now() - revokedAt).toBeLessThan(1_000 + 2_500); // one reload, with room for a loaded machine
    expect(((await res.json()) as { message: string }).message).toContain('has been revoked');
  });
});
