import { setTimeout as sleep } from 'node:timers/promises';
import { ClickHouseLogLevel, createClient, type ClickHouseClient } from '@clickhouse/client';
import { Store } from '@telltale/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChServer, type ChServerProcess } from './index.js';

/*
 * Remote-mode faults, for real: the server killed and restarted on the same
 * port and data directory, stopped gracefully mid-request, slow past the
 * client's timeout, and refusing requests — always through one long-lived
 * @clickhouse/client, as the collector and the API server hold theirs.
 */
const REQUEST_TIMEOUT_MS = 1_500;

describe('chserver faults, seen by @clickhouse/client', () => {
  let server: ChServerProcess;
  let client: ClickHouseClient;

  const count = async (): Promise<number> => {
    const rs = await client.query({ query: 'SELECT count() AS n FROM events', format: 'JSONEachRow' });
    return (await rs.json<{ n: number }>())[0]!.n;
  };
  const insert = (from: number, n: number, token: string) =>
    client.insert({
      table: 'events',
      values: Array.from({ length: n }, (_, i) => ({ id: from + i, note: `event ${from + i}\n\n` })),
      format: 'JSONEachRow',
      clickhouse_settings: { insert_deduplication_token: token },
    });

  beforeAll(async () => {
    server = await startChServer();
    client = createClient({
      url: server.url,
      request_timeout: REQUEST_TIMEOUT_MS,
      compression: { response: true },
      log: { level: ClickHouseLogLevel.OFF },
    });
    await client.command({
      query:
        'CREATE TABLE events (id UInt32, note String) ENGINE = MergeTree ORDER BY id SETTINGS non_replicated_deduplication_window = 100',
    });
  });
  afterAll(async () => {
    await client?.close();
    await server?.dispose();
  });

  it('a killed server refuses connections; restarted on its port, the same client finds the data written before', async () => {
    await insert(0, 100, 'before-kill');
    const port = server.port;
    expect(await server.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    await expect(count()).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect((await client.ping()).success).toBe(false);

    await server.start();
    expect(server.port).toBe(port);
    expect(await count()).toBe(100);
    await insert(100, 50, 'after-restart');
    expect(await count()).toBe(150);
  });

  it('SIGTERM lets a request in flight answer, then the server exits cleanly', async () => {
    await server.setMode({ mode: 'slow', delayMs: 700 });
    const pending = client.query({ query: 'SELECT 42 AS answer', format: 'JSONEachRow' });
    await sleep(200);
    const stopped = server.stop('SIGTERM');
    expect(await (await pending).json()).toEqual([{ answer: 42 }]);
    expect(await stopped).toEqual({ code: 0, signal: null });
    await expect(count()).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await server.start();
    expect(await count()).toBe(150);
  });

  it('slow past request_timeout: the client times out, and retrying with the same token does not duplicate', async () => {
    await server.setMode({ mode: 'slow', delayMs: REQUEST_TIMEOUT_MS + 1_000 });
    const started = Date.now();
    await expect(insert(1_000, 10, 'slow-insert')).rejects.toThrow('Timeout error.');
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
    expect(waited).toBeLessThan(REQUEST_TIMEOUT_MS + 1_000);
    await expect(client.ping()).resolves.toMatchObject({ success: false });

    await server.setMode({ mode: 'ok' });
    // The slow server had stored the rows before answering late: the retry is deduplicated.
    await insert(1_000, 10, 'slow-insert');
    expect(await count()).toBe(160);
  });

  it('refusing: 503 answers and reset connections are errors; back to ok, the same client works', async () => {
    await server.setMode({ mode: 'refuse' });
    await expect(count()).rejects.toThrow(/Service Unavailable/);
    expect((await client.ping()).success).toBe(false);

    await server.setMode({ mode: 'refuse', how: 'reset' });
    await expect(count()).rejects.toMatchObject({ code: expect.stringMatching(/^(ECONNRESET|EPIPE)$/) });

    await server.setMode({ mode: 'ok' });
    expect(await count()).toBe(160);
  });

  it('the store in remote mode fails to open while the server is down, and opens after it is back', async () => {
    await server.stop('SIGKILL');
    await expect(Store.open({ kind: 'remote', url: server.url })).rejects.toMatchObject({
      code: 'STORAGE',
      message: expect.stringMatching(/nothing listens there \(connection refused\)$/) as unknown,
    });
    await server.start();
    const store = await Store.open({ kind: 'remote', url: server.url });
    try {
      expect(await store.ping()).toBe(true);
      await server.setMode({ mode: 'refuse' });
      expect(await store.ping()).toBe(false);
      await server.setMode({ mode: 'ok' });
      expect(await store.ping()).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('rejects a fault mode it does not know', async () => {
    await expect(server.setMode({ mode: 'slow' } as never)).rejects.toThrow(/refused the mode/);
    const res = await fetch(`${server.url}/__control`);
    expect(await res.json()).toMatchObject({ mode: 'ok' });
  });
});
