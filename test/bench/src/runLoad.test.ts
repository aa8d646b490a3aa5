import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentPayloads } from './agentPayloads.js';
import { PayloadPool } from './PayloadPool.js';
import { runLoad } from './runLoad.js';

const ANSWER_MS = 20;

describe('runLoad', () => {
  let server: Server;
  let url = '';
  let received = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received++;
        setTimeout(() => res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end(), ANSWER_MS);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  const pool = new PayloadPool(agentPayloads({ templates: 2, seed: 1, contentBytes: 0 }));
  const spansPerRequest = pool.templates[0]!.spans;

  it('open loop: requests arrive at the offered rate whatever the answers, latency from each arrival', async () => {
    const requestsPerS = 40;
    const before = received;
    const edges: { edge: string; at: number }[] = [];
    const r = await runLoad({
      url,
      pool,
      concurrency: 1,
      offeredSpansPerS: requestsPerS * spansPerRequest,
      warmupMs: 200,
      windowMs: 2_000,
      onWindow: (edge, at) => edges.push({ edge, at }),
    });
    expect(r.mode).toBe('open');
    // both edges, once each, about the window's length apart
    expect(edges.map((e) => e.edge)).toEqual(['start', 'end']);
    expect(edges[1]!.at - edges[0]!.at).toBeGreaterThan(1_900);
    expect(r.otherFailures).toEqual([]);
    // Poisson arrivals: 80 expected in the window; far more than one loop's 1 / 20 ms could answer in turn
    expect(r.windowAckedRequests).toBeGreaterThan(40);
    expect(r.windowAckedRequests).toBeLessThan(130);
    expect(received - before).toBe(r.ackedRequests);
    expect(r.windowLatenciesMs.length).toBe(r.windowAckedRequests);
    expect(r.windowLatenciesMs[0]).toBeGreaterThanOrEqual(ANSWER_MS - 2);
    expect(r.peakInFlight).toBeGreaterThanOrEqual(1);
  });

  it('closed loop: never more than `concurrency` requests in flight', async () => {
    const r = await runLoad({ url, pool, concurrency: 2, warmupMs: 100, windowMs: 600 });
    expect(r.mode).toBe('closed');
    expect(r.offeredSpansPerS).toBeUndefined();
    expect(r.peakInFlight).toBe(2);
    expect(r.windowAckedRequests).toBeGreaterThan(5);
    expect(r.windowLatenciesMs[0]).toBeGreaterThanOrEqual(ANSWER_MS - 2);
  });
});
