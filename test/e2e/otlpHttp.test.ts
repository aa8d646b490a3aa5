import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

/** A hand-written OTLP/JSON request: ids in hex, int64 as strings, enums as integers. */
function jsonRequest(spanIds: string[], extra: Record<string, unknown> = {}): string {
  const now = BigInt(Date.now()) * 1_000_000n;
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'raw-json' } }] },
        scopeSpans: [
          {
            scope: { name: 'handmade' },
            spans: spanIds.map((spanId, i) => ({
              traceId: '5b8efff798038103d269b633813fc60c',
              spanId,
              name: `step ${i}`,
              kind: 1,
              startTimeUnixNano: String(now + BigInt(i)),
              endTimeUnixNano: String(now + BigInt(i) + 1000n),
              attributes: [{ key: 'telltale.run.id', value: { stringValue: 'raw-run' } }],
              status: { code: 1 },
              ...extra,
            })),
          },
        ],
      },
    ],
  });
}

describe('OTLP/HTTP receiver follows the spec and keeps serving', () => {
  let telltale: TelltaleProcess;

  beforeAll(async () => {
    telltale = await TelltaleProcess.start({ args: ['--max-body-bytes', '65536'] });
  });
  afterAll(async () => {
    await telltale.dispose();
  });

  const post = (body: BodyInit, headers: Record<string, string>): Promise<Response> =>
    fetch(`${telltale.url}/v1/traces`, { method: 'POST', body, headers });

  it('accepts OTLP/JSON and answers with an empty ExportTraceServiceResponse', async () => {
    const res = await post(jsonRequest(['eee19b7ec3c1b174']), { 'content-type': 'application/json' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(await res.json()).toEqual({});
  });

  it('rejects invalid spans one by one with partial_success', async () => {
    const body = JSON.parse(jsonRequest(['eee19b7ec3c1b175', '0000000000000000'])) as {
      resourceSpans: { scopeSpans: { spans: { spanId: string }[] }[] }[];
    };
    const res = await post(JSON.stringify(body), { 'content-type': 'application/json' });
    expect(res.status).toBe(200);
    const json = (await res.json()) as { partialSuccess: { rejectedSpans: string; errorMessage: string } };
    expect(Number(json.partialSuccess.rejectedSpans)).toBe(1);
    expect(json.partialSuccess.errorMessage).toMatch(/invalid span id/);
  });

  it('answers 400 with a google.rpc.Status for an undecodable protobuf body', async () => {
    const res = await post(new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x01]), {
      'content-type': 'application/x-protobuf',
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/x-protobuf');
    const bytes = new Uint8Array(await res.arrayBuffer());
    // google.rpc.Status: field 1 (code) varint = 3 INVALID_ARGUMENT, then field 2 (message).
    expect([bytes[0], bytes[1]]).toEqual([0x08, 3]);
    expect(bytes[2]).toBe(0x12);
  });

  it('answers 400 with a JSON Status for malformed JSON and for bad ids', async () => {
    const broken = await post('{"resourceSpans": [', { 'content-type': 'application/json' });
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { code: number }).code).toBe(3);
    const badId = await post(jsonRequest(['not-hex-at-all!!']), { 'content-type': 'application/json' });
    expect(badId.status).toBe(400);
    expect(((await badId.json()) as { message: string }).message).toMatch(/spanId/);
  });

  it('answers 415 for other content types and unknown encodings', async () => {
    expect((await post('hello', { 'content-type': 'text/plain' })).status).toBe(415);
    expect(
      (await post(jsonRequest(['eee19b7ec3c1b176']), { 'content-type': 'application/json', 'content-encoding': 'br' }))
        .status,
    ).toBe(415);
  });

  it('answers 413 for a body over the limit, compressed or not, and cuts a gzip bomb off early', async () => {
    const big = 'x'.repeat(70_000);
    expect((await post(big, { 'content-type': 'application/json' })).status).toBe(413);
    // 64 MiB of zeros gzips to ~64 KiB; the limit is 64 KiB decompressed.
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
    const started = Date.now();
    const res = await post(new Uint8Array(bomb), {
      'content-type': 'application/x-protobuf',
      'content-encoding': 'gzip',
    });
    expect(res.status).toBe(413);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('accepts gzip-compressed bodies', async () => {
    const res = await post(new Uint8Array(gzipSync(jsonRequest(['eee19b7ec3c1b177']))), {
      'content-type': 'application/json',
      'content-encoding': 'gzip',
    });
    expect(res.status).toBe(200);
  });

  it('keeps serving after all of that, and stored every accepted span', async () => {
    const res = await post(jsonRequest(['eee19b7ec3c1b178']), { 'content-type': 'application/json' });
    expect(res.status).toBe(200);
    const { status, body } = await telltale.getJson<{ spans: { spanId: string }[] }>('/api/v1/runs/raw-run');
    expect(status).toBe(200);
    expect(body.spans.map((s) => s.spanId).sort()).toEqual([
      'eee19b7ec3c1b174',
      'eee19b7ec3c1b175',
      'eee19b7ec3c1b177',
      'eee19b7ec3c1b178',
    ]);
  });

  it('answers API errors as JSON with a code', async () => {
    const missing = await telltale.getJson<{ error: { code: string } }>('/api/v1/runs/nope');
    expect(missing).toEqual({ status: 404, body: { error: { code: 'NOT_FOUND', message: 'no run nope' } } });
    const bad = await telltale.getJson<{ error: { code: string; message: string } }>('/api/v1/runs?limit=0');
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/limit/);
    const unknown = await telltale.getJson<{ error: { code: string } }>('/api/v1/runs?bogus=1');
    expect(unknown.status).toBe(400);
  });
});
