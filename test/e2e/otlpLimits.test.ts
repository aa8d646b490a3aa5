import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

/*
 * Hostile and runaway input through the real server: a span with 10,000
 * attributes and a 5 MB value is stored cut to the limits, with what was cut
 * counted; spans from 1970 and 2100 are rejected one by one while the rest of
 * the batch is stored; the server keeps serving.
 */
const RUN = 'limits-run';
const TRACE = '7b8efff798038103d269b633813fc60c';

interface SpanJson {
  spanId: string;
  start: bigint;
  attributes: Array<{ key: string; value: { stringValue?: string; intValue?: string } }>;
}

function body(spans: SpanJson[]): string {
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'limits' } }] },
        scopeSpans: [
          {
            scope: { name: 'handmade' },
            spans: spans.map((s) => ({
              traceId: TRACE,
              spanId: s.spanId,
              name: 'step',
              kind: 1,
              startTimeUnixNano: String(s.start),
              endTimeUnixNano: String(s.start + 1_000_000n),
              attributes: [{ key: 'telltale.run.id', value: { stringValue: RUN } }, ...s.attributes],
              status: { code: 1 },
            })),
          },
        ],
      },
    ],
  });
}

interface StoredSpan {
  spanId: string;
  attributes: Record<string, unknown>;
  dropped: { attributes: number; events: number; links: number };
}

describe('OTLP/HTTP input limits', () => {
  let telltale: TelltaleProcess;
  const now = BigInt(Date.now()) * 1_000_000n;
  const at = (iso: string): bigint => BigInt(Date.parse(iso)) * 1_000_000n;

  beforeAll(async () => {
    telltale = await TelltaleProcess.start();
  });
  afterAll(async () => {
    await telltale.dispose();
  });

  it('stores an oversized span cut to the limits and rejects only the spans outside the time range', async () => {
    const many = Array.from({ length: 10_000 }, (_, i) => ({ key: `attr.${i}`, value: { intValue: String(i) } }));
    const huge = { key: 'huge', value: { stringValue: 'x'.repeat(5 * 1024 * 1024) } };
    const res = await fetch(`${telltale.url}/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: body([
        { spanId: 'aaaa000000000001', start: now, attributes: [huge, ...many] },
        { spanId: 'aaaa000000000002', start: at('1970-01-01T00:00:01Z'), attributes: [] },
        { spanId: 'aaaa000000000003', start: at('2100-01-01T00:00:00Z'), attributes: [] },
        { spanId: 'aaaa000000000004', start: now + 1_000n, attributes: [] },
      ]),
    });
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { partialSuccess: { rejectedSpans: string; errorMessage: string } };
    expect(Number(answer.partialSuccess.rejectedSpans)).toBe(2);
    expect(answer.partialSuccess.errorMessage).toMatch(
      /aaaa000000000002: start time 1970-01-01T00:00:01\.000Z is more than \d+ days in the past/,
    );
    expect(answer.partialSuccess.errorMessage).toMatch(
      /aaaa000000000003: start time 2100-01-01T00:00:00\.000Z is more than \d+ minutes in the future/,
    );
    expect(answer.partialSuccess.errorMessage).toMatch(/9746 attributes dropped over 256 per span/);
    expect(answer.partialSuccess.errorMessage).toMatch(/1 attribute values cut to 32768 bytes/);

    const { status, body: run } = await telltale.getJson<{ spans: StoredSpan[] }>(`/api/v1/runs/${RUN}`);
    expect(status).toBe(200);
    expect(run.spans.map((s) => s.spanId).sort()).toEqual(['aaaa000000000001', 'aaaa000000000004']);
    const cut = run.spans.find((s) => s.spanId === 'aaaa000000000001')!;
    expect(Object.keys(cut.attributes)).toHaveLength(256);
    expect((cut.attributes.huge as string).length).toBe(32 * 1024);
    expect(cut.attributes['telltale.run.id']).toBe(RUN);
    expect(cut.dropped).toEqual({ attributes: 10_002 - 256, events: 0, links: 0 });
  });

  it('keeps serving', async () => {
    const res = await fetch(`${telltale.url}/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: body([{ spanId: 'aaaa000000000005', start: now + 2_000n, attributes: [] }]),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({});
  });
});
