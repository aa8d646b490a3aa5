import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRequest } from './harness/RunSender.js';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

/** Peak resident memory of a process so far (VmHWM), in MiB. */
function peakRssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmHWM:'));
  return Number(line?.replace(/\D+/g, '')) / 1024;
}

/** ~1 MB that gunzips to 1 GiB: 64 gzip members of 16 MiB of zeros each (a multi-member stream is valid gzip). */
function gzipBomb(): Buffer {
  const member = gzipSync(Buffer.alloc(16 * 1024 * 1024), { level: 9 });
  return Buffer.concat(Array.from({ length: 64 }, () => member));
}

describe('hostile input through the real server', () => {
  let telltale: TelltaleProcess;
  beforeAll(async () => {
    telltale = await TelltaleProcess.start({ args: ['--request-timeout-ms', '1500'] });
  });
  afterAll(async () => {
    await telltale.dispose();
  });

  const post = (body: BodyInit, headers: Record<string, string>): Promise<Response> =>
    fetch(`${telltale.url}/v1/traces`, { method: 'POST', body, headers });

  it('cuts gzip bombs (1 MB → 1 GiB) off early with 413 and bounded memory, while valid requests succeed', async () => {
    const bomb = gzipBomb();
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    const before = peakRssMiB(telltale.pid);
    const started = Date.now();
    const bombs = Array.from({ length: 4 }, () =>
      post(new Uint8Array(bomb), { 'content-type': 'application/x-protobuf', 'content-encoding': 'gzip' }),
    );
    const valid = Array.from({ length: 20 }, (_, i) =>
      post(runRequest(`bomb-neighbour-${i}`, 10), { 'content-type': 'application/json' }),
    );
    const bombStatuses = await Promise.all(bombs.map(async (r) => (await r).status));
    const elapsed = Date.now() - started;
    const validStatuses = await Promise.all(valid.map(async (r) => (await r).status));
    const after = peakRssMiB(telltale.pid);
    console.log(
      `gzip bombs: 4 × ${(bomb.length / 1e6).toFixed(1)} MB → 413 in ${elapsed} ms; server peak RSS ${before.toFixed(0)} → ${after.toFixed(0)} MiB`,
    );
    expect(bombStatuses).toEqual([413, 413, 413, 413]);
    expect(validStatuses).toEqual(Array.from({ length: 20 }, () => 200));
    expect(elapsed).toBeLessThan(10_000);
    // four bombs inflated whole would take 4 GiB; each is cut at the 16 MiB body limit
    expect(after - before).toBeLessThan(400);
  });

  it('answers a truncated protobuf body with 400 and a message', async () => {
    // a ResourceSpans (field 1) that declares 200 bytes but the body ends 5 bytes in
    const truncated = new Uint8Array([0x0a, 0xc8, 0x01, 0x12, 0x03, 0x0a, 0x01, 0x78]);
    const res = await post(truncated, { 'content-type': 'application/x-protobuf' });
    expect(res.status).toBe(400);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.toString('latin1')).toMatch(/exceeds|truncated|bytes left/);
  });

  it('times a stalled upload out (408 / closed) and keeps serving others', async () => {
    const port = Number(new URL(telltale.url).port);
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const answer = new Promise<{ text: string; ms: number }>((resolve) => {
      const started = Date.now();
      let text = '';
      socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
      socket.once('close', () => resolve({ text, ms: Date.now() - started }));
    });
    // headers and 10 of the 100,000 promised bytes, then nothing
    socket.write(
      'POST /v1/traces HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"resource',
    );
    const meanwhile = await post(runRequest('stall-neighbour', 5), { 'content-type': 'application/json' });
    expect(meanwhile.status).toBe(200);
    const { text, ms } = await answer;
    expect(text).toMatch(/^HTTP\/1\.1 408/);
    expect(ms).toBeLessThan(6_000);
  });
});
