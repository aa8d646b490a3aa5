import type { CompoundingCurve, ReliabilitySummary } from '@telltale/analytics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../http/startServer.js';
import { callApi, startScriptedServer } from '../testing/scriptedServer.js';
import type { ScriptedRun } from '../testing/sendScriptedRuns.js';

const HOUR = 3_600_000;
let server: RunningServer;
let stop: (() => Promise<void>) | undefined;
const base = Date.now() - 2 * HOUR;
const from = base - HOUR;
const to = base + HOUR;

function alphaRun(i: number): ScriptedRun {
  return {
    startMs: base + i * 1000,
    steps: [
      { kind: 'plan', name: 'plan', ms: 10 },
      { kind: 'tool', name: 'search', ms: 100, fails: i % 5 === 0, attributes: { tier: 'gold' } },
      { kind: 'llm', name: 'draft', ms: 300, model: 'm-alpha' },
    ],
  };
}

function betaRun(i: number): ScriptedRun {
  return {
    startMs: base + i * 1000 + 500,
    steps: [{ kind: 'tool', name: 'lookup', ms: 50, attributes: { tier: 'silver' } }],
  };
}

const get = <T = ReliabilitySummary>(path: string): Promise<{ status: number; body: T }> =>
  callApi<T>(server, 'GET', path);

beforeAll(async () => {
  // alpha: 20 runs, search fails in runs 0, 5, 10, 15 → 16 of 20 succeed; beta: 10 of 10.
  ({ server, stop } = await startScriptedServer([
    { agent: 'alpha', runs: Array.from({ length: 20 }, (_, i) => alphaRun(i)) },
    { agent: 'beta', runs: Array.from({ length: 10 }, (_, i) => betaRun(i)) },
  ]));
});

afterAll(() => stop?.());

describe('GET /api/v1/reliability/summary', () => {
  it('answers the known outcomes and exactly what the facade computes for the same filter', async () => {
    const { status, body } = await get(`/reliability/summary?from=${from}&to=${to}&whatIfTarget=0.995`);
    expect(status).toBe(200);
    expect(body.runs).toEqual({ success: 26, failure: 4, incomplete: 0 });
    expect(body.observed.value).toBeCloseTo(26 / 30, 12);
    expect(body.whatIfTarget).toBe(0.995);
    const search = body.steps.find((s) => s.stepName === 'search');
    expect(search!.eventualSuccess.value).toBeCloseTo(16 / 20, 12);
    const direct = await server.analytics.reliability(
      { projectId: 'default', fromUnixNano: BigInt(from) * 1_000_000n, toUnixNano: BigInt(to) * 1_000_000n },
      { whatIfTarget: 0.995 },
    );
    expect(body).toEqual(JSON.parse(JSON.stringify(direct)));
  });

  it('filters by agent, by step and by attribute', async () => {
    const alpha = await get(`/reliability/summary?from=${from}&to=${to}&agent=alpha`);
    expect(alpha.body.runs).toEqual({ success: 16, failure: 4, incomplete: 0 });
    const silver = await get(`/reliability/summary?from=${from}&to=${to}&attr.tier=silver`);
    expect(silver.body.runs).toEqual({ success: 10, failure: 0, incomplete: 0 });
    const gold = await get(`/reliability/summary?from=${from}&to=${to}&attr.tier=gold&service=svc`);
    expect(gold.body.runs).toEqual({ success: 16, failure: 4, incomplete: 0 });
    const none = await get(`/reliability/summary?from=${from}&to=${to}&attr.tier=gold&attr.other=x`);
    expect(none.body.runs).toEqual({ success: 0, failure: 0, incomplete: 0 });
  });

  it('defaults to the last 24 hours', async () => {
    const { body } = await get('/reliability/summary');
    expect(body.runs.success + body.runs.failure).toBe(30);
    const old = await get(`/reliability/summary?to=${base - HOUR}`);
    expect(old.body.runs).toEqual({ success: 0, failure: 0, incomplete: 0 });
  });
});

describe('GET /api/v1/reliability/curve', () => {
  it('matches the facade', async () => {
    const { status, body } = await get<CompoundingCurve>(
      `/reliability/curve?from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}&agent=alpha`,
    );
    expect(status).toBe(200);
    const direct = await server.analytics.compoundingCurve({
      projectId: 'default',
      fromUnixNano: BigInt(from) * 1_000_000n,
      toUnixNano: BigInt(to) * 1_000_000n,
      agent: 'alpha',
    });
    expect(body).toEqual(JSON.parse(JSON.stringify(direct)));
    expect(body.points.reduce((n, p) => n + p.runs, 0)).toBe(20);
  });
});

describe('query validation', () => {
  it.each([
    ['/reliability/summary?bogus=1', /unknown query parameter bogus/],
    ['/reliability/summary?groupBy=step', /unknown query parameter groupBy/],
    ['/reliability/summary?whatIfTarget=2', /whatIfTarget/],
    [`/reliability/summary?from=${to}&to=${from}`, /from: must be before to/],
    ['/reliability/summary?from=yesterday', /invalid query parameter from: a time: unix ms, or ISO-8601/],
    ['/reliability/summary?attr.bad%20key=x', /attr\.bad key: .*attribute key/],
    ['/reliability/summary?attr=x', /attr\.<key>=<value>/],
    ['/reliability/summary?agent=a&agent=b', /agent is given more than once/],
    [`/reliability/summary?${Array.from({ length: 11 }, (_, i) => `attr.k${i}=v`).join('&')}`, /at most 10 attr/],
    ['/reliability/curve?whatIfTarget=0.9', /unknown query parameter whatIfTarget/],
  ])('%s → 400', async (path, message) => {
    const { status, body } = await get<{ error: { code: string; message: string } }>(path);
    expect(status).toBe(400);
    expect(body.error.code).toBe('BAD_REQUEST');
    expect(body.error.message).toMatch(message);
  });
});
