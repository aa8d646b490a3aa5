import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiKeyKind } from '@telltale/semconv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../auth/apiKey.js';
import { StartConfigSchema } from '../config.js';
import { startServer, type RunningServer } from './startServer.js';

/**
 * A running server (real HTTP, real store) while keys change underneath it —
 * as `telltale keys revoke` does from another process against a shared
 * ClickHouse. Here the writes go through the server's own store client.
 */
describe('a server with --auth keys follows key changes in the store', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'telltale-refresh-'));
  const REFRESH_S = 0.5;
  let running: RunningServer;

  async function newKey(projectId: string, kind: ApiKeyKind): Promise<{ key: string; keyId: string }> {
    const key = generateApiKey(kind);
    await running.store.auth.insertApiKey({ keyId: key.keyId, projectId, kind, secretSha256: key.secretSha256 });
    return key;
  }
  const runs = (key: string): Promise<Response> =>
    fetch(`${running.url}/api/v1/runs`, { headers: { authorization: `Bearer ${key}` } });
  const spans = (key: string, count: number): Promise<Response> => {
    const now = BigInt(Date.now()) * 1_000_000n;
    const body = JSON.stringify({
      resourceSpans: [
        {
          resource: { attributes: [] },
          scopeSpans: [
            {
              spans: Array.from({ length: count }, (_, i) => ({
                traceId: '9b8efff798038103d269b633813fc60c',
                spanId: (
                  0x2000_0000_0000_0000n +
                  BigInt(i) +
                  BigInt(Math.floor(Math.random() * 1e9)) * 10_000n
                ).toString(16),
                name: 's',
                startTimeUnixNano: String(now),
                endTimeUnixNano: String(now + 1000n),
              })),
            },
          ],
        },
      ],
    });
    return fetch(`${running.url}/v1/traces`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    });
  };

  beforeAll(async () => {
    running = await startServer(
      StartConfigSchema.parse({
        port: 0,
        grpcPort: 0,
        dataDir,
        auth: 'keys',
        authRefreshSeconds: REFRESH_S,
        logLevel: 'silent',
        webDir: dataDir,
      }),
    );
    await running.store.auth.createProject({ id: 'live' });
  });
  afterAll(async () => {
    await running.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('accepts a key created after it started on first use', async () => {
    expect(running.authMode).toBe('keys');
    const { key } = await newKey('live', 'read');
    expect((await runs(key)).status).toBe(200);
  });

  it('refuses a revoked key within the refresh interval', async () => {
    const { key, keyId } = await newKey('live', 'read');
    expect((await runs(key)).status).toBe(200);
    await running.store.auth.revokeApiKey(keyId);
    const revokedAt = Date.now();
    let res = await runs(key);
    while (res.status === 200 && Date.now() - revokedAt < 10_000) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      res = await runs(key);
    }
    const took = Date.now() - revokedAt;
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe(
      `API key ${keyId} has been revoked`,
    );
    expect(took).toBeLessThan(REFRESH_S * 1000 + 2_000); // one reload, with room for a loaded machine
  });

  it('applies a quota set while it runs', async () => {
    const { key } = await newKey('live', 'ingest');
    expect((await spans(key, 20)).status).toBe(200);
    expect((await spans(key, 20)).status).toBe(200);
    await running.store.auth.updateProject('live', { maxSpansPerSecond: 2 }); // holds 10
    const setAt = Date.now();
    let res = await spans(key, 20);
    while (res.status === 200 && Date.now() - setAt < 10_000) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      res = await spans(key, 20);
    }
    expect(res.status).toBe(429);
    expect(['1', '2', '3']).toContain(res.headers.get('retry-after'));
  });
});
