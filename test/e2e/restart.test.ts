import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

function request(runId: string, spanId: string): string {
  const now = BigInt(Date.now()) * 1_000_000n + 123n;
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'restart-test' } }] },
        scopeSpans: [
          {
            spans: [
              {
                traceId: 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
                spanId,
                name: 'agent',
                startTimeUnixNano: now.toString(),
                endTimeUnixNano: (now + 5_000n).toString(),
                attributes: [
                  { key: 'telltale.run.id', value: { stringValue: runId } },
                  { key: 'telltale.step.kind', value: { stringValue: 'run' } },
                ],
                status: { code: 1 },
              },
            ],
          },
        ],
      },
    ],
  });
}

describe('data survives a server restart', () => {
  let telltale: TelltaleProcess;
  beforeAll(async () => {
    telltale = await TelltaleProcess.start();
  });
  afterAll(async () => {
    await telltale.dispose();
  });

  it('keeps acknowledged spans across SIGTERM and a new process on the same data dir', async () => {
    const res = await fetch(`${telltale.url}/v1/traces`, {
      method: 'POST',
      body: request('before-restart', '00000000000000a1'),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(200);
    expect(await telltale.stop()).toBe(0);

    await telltale.restart();
    const { status, body } = await telltale.getJson<{
      run: { outcome: string };
      spans: { spanId: string; startTimeUnixNano: string }[];
    }>('/api/v1/runs/before-restart');
    expect(status).toBe(200);
    expect(body.run.outcome).toBe('success');
    expect(body.spans.map((s) => s.spanId)).toEqual(['00000000000000a1']);
    expect(body.spans[0]!.startTimeUnixNano.endsWith('123')).toBe(true);
  });
});
