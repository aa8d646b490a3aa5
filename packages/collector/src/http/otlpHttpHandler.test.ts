import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Collector } from '../ingest/Collector.js';

/** A request of `n` spans as OTLP/JSON, about 1.2 KB per span. */
function request(n: number, tag: string): string {
  const start = BigInt(Date.now()) * 1_000_000n;
  const spans = Array.from({ length: n }, (_, i) => ({
    traceId: '5b8efff798038103d269b633813fc60c',
    spanId: (i + 1).toString(16).padStart(16, '0'),
    name: `span ${i}`,
    startTimeUnixNano: String(start),
    endTimeUnixNano: String(start + 1000n),
    attributes: [
      { key: 'telltale.run.id', value: { stringValue: tag } },
      { key: 'filler', value: { stringValue: 'x'.repeat(1_000) } },
    ],
  }));
  return JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ spans }] }] });
}

describe('the OTLP/HTTP handler with worker threads', () => {
  /** Spans of each request acknowledged (kept in the spool), as its observation says. */
  const acknowledged: number[] = [];
  let dir: string;
  let collector: Collector;
  let server: Server;
  let url: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'telltale-http-'));
    collector = await Collector.open({
      spool: { dir },
      storage: {
        insert: async (messages) => {
          for await (const m of messages) void m;
        },
      },
      workers: 1,
      limits: { maxBodyBytes: 256 * 1024, maxInFlightBytes: 1024 * 1024 },
      observe: {
        onDone: (done) => {
          if (done.ingested !== undefined) acknowledged.push(done.ingested.spanCount);
        },
      },
    });
    server = createServer(collector.httpHandler());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await collector.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('gives every body back to the memory budget, though transferring it to a worker empties it', async () => {
    // 40 requests of ~120 KB through a 1 MiB budget: a body not given back would exhaust it after 8
    for (let i = 0; i < 40; i++) {
      const res = await fetch(url, {
        method: 'POST',
        body: request(100, `run-${i}`),
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status, `request ${i}`).toBe(200);
    }
    await expect.poll(() => acknowledged, { timeout: 5_000 }).toEqual(Array.from({ length: 40 }, () => 100));
  });

  it('answers 503 with Retry-After, without decoding, while the budget is spent by concurrent bodies', async () => {
    const statuses = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        fetch(url, {
          method: 'POST',
          body: request(200, `burst-${i}`),
          headers: { 'content-type': 'application/json' },
        }).then((r) => [r.status, r.headers.get('retry-after')] as const),
      ),
    );
    expect(statuses.some(([s]) => s === 200)).toBe(true);
    for (const [status, retryAfter] of statuses) {
      expect([200, 503]).toContain(status);
      if (status === 503) expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    }
    // and the budget is whole again afterwards
    const after = await fetch(url, {
      method: 'POST',
      body: request(100, 'after'),
      headers: { 'content-type': 'application/json' },
    });
    expect(after.status).toBe(200);
  });
});
