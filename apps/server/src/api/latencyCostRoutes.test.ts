import type {
  CostBreakdown,
  CostSeries,
  CostSummary,
  EffectivePrice,
  LatencyPercentiles,
  LatencySeries,
  RunHistogram,
  TailAttribution,
} from '@telltale/analytics';
import type { AnalyticsFilter } from '@telltale/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../http/startServer.js';
import { callApi, startScriptedServer } from '../testing/scriptedServer.js';
import type { ScriptedRun } from '../testing/sendScriptedRuns.js';

const HOUR = 3_600_000;
const MS = 1_000_000;
let server: RunningServer;
let stop: (() => Promise<void>) | undefined;
const base = Math.floor((Date.now() - 3 * HOUR) / HOUR) * HOUR;
const from = base - HOUR;
const to = base + HOUR;
const window = `from=${from}&to=${to}`;
const filter: AnalyticsFilter = {
  projectId: 'default',
  fromUnixNano: BigInt(from) * 1_000_000n,
  toUnixNano: BigInt(to) * 1_000_000n,
};

// alpha: 20 runs of plan 10 ms → search 100 ms (fails in runs 0, 5, 10, 15) → draft 300 ms costing $0.01.
function alphaRun(i: number): ScriptedRun {
  return {
    startMs: base + i * 1000,
    steps: [
      { kind: 'plan', name: 'plan', ms: 10 },
      { kind: 'tool', name: 'search', ms: 100, fails: i % 5 === 0 },
      {
        kind: 'llm',
        name: 'draft',
        ms: 300,
        model: 'm-alpha',
        usage: { inputTokens: 100, outputTokens: 10, costUsd: 0.01 },
      },
    ],
  };
}

// beta: 10 runs of one call to `house-model` with 1M input tokens and no explicit cost (priced only by an override).
function betaRun(i: number): ScriptedRun {
  return {
    startMs: base + 600_000 + i * 1000,
    steps: [
      {
        kind: 'llm',
        name: 'answer',
        ms: 50 + i,
        model: 'house-model',
        usage: { inputTokens: 1_000_000, outputTokens: 0 },
      },
    ],
  };
}

// gamma: 4 runs that each think once at $0.50; runs 0 and 1 then call `lookup` with the same arguments three
// times (a repeated-action loop) and run 1 fails at `gamma-fetch` (so its primary cause is the loop).
function gammaRun(i: number): ScriptedRun {
  const lookup = { kind: 'tool' as const, name: 'lookup', ms: 5 };
  const steps: ScriptedRun['steps'][number][] = [
    { kind: 'llm', name: 'think', ms: 20, model: 'm-gamma', usage: { inputTokens: 10, outputTokens: 1, costUsd: 0.5 } },
  ];
  steps.push(...(i < 2 ? [lookup, lookup, lookup] : [lookup]));
  if (i === 1) steps.push({ kind: 'tool', name: 'gamma-fetch', ms: 5, fails: true });
  return { startMs: base + 1_200_000 + i * 1000, steps };
}

const call = <T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> =>
  callApi<T>(server, method, path, body);
const get = <T>(path: string): Promise<{ status: number; body: T }> => call<T>('GET', path);
const roundTrip = (x: unknown): unknown => JSON.parse(JSON.stringify(x));

beforeAll(async () => {
  ({ server, stop } = await startScriptedServer([
    { agent: 'alpha', runs: Array.from({ length: 20 }, (_, i) => alphaRun(i)) },
    { agent: 'beta', runs: Array.from({ length: 10 }, (_, i) => betaRun(i)) },
    { agent: 'gamma', runs: Array.from({ length: 4 }, (_, i) => gammaRun(i)) },
  ]));
});

afterAll(() => stop?.());

describe('/latency', () => {
  it('percentiles by step: the known durations, and what the facade says', async () => {
    const { status, body } = await get<LatencyPercentiles>(`/latency/percentiles?${window}&groupBy=step&agent=alpha`);
    expect(status).toBe(200);
    const search = body.groups.find((g) => g.key === 'search')!;
    expect(search.count).toBe(20);
    expect(search.percentilesNs.p50).toBe(100 * MS);
    expect(body.groups.find((g) => g.key === 'draft')!.count).toBe(16);
    expect(body).toEqual(
      roundTrip(await server.analytics.latencyPercentiles({ ...filter, agent: 'alpha' }, { groupBy: 'step' })),
    );
  });

  it('precision=sketch: every group a DDSketch group (±1%), the same counts', async () => {
    const exact = await get<LatencyPercentiles>(`/latency/percentiles?${window}&groupBy=step`);
    const { status, body } = await get<LatencyPercentiles>(
      `/latency/percentiles?${window}&groupBy=step&precision=sketch`,
    );
    expect(status).toBe(200);
    expect(body.exactLimit).toBe(0);
    expect(body.groups.map((g) => [g.key, g.count, g.maxNs])).toEqual(
      exact.body.groups.map((g) => [g.key, g.count, g.maxNs]),
    );
    for (const [i, g] of body.groups.entries()) {
      expect(g.accuracy).toEqual({ method: 'ddsketch', relativeError: 0.01 });
      const p50 = exact.body.groups[i]!.percentilesNs.p50;
      expect(Math.abs(g.percentilesNs.p50 - p50)).toBeLessThanOrEqual(0.01 * p50 + 1);
    }
    const series = await get<LatencySeries>(`/latency/series?${window}&groupBy=tool&interval=3600&precision=sketch`);
    expect(series.body).toEqual(
      roundTrip(
        await server.analytics.latencySeries(filter, {
          groupBy: 'tool',
          intervalSeconds: 3600,
          topN: 10,
          precision: 'sketch',
        }),
      ),
    );
  });

  it('percentiles default to whole runs', async () => {
    const { body } = await get<LatencyPercentiles>(`/latency/percentiles?${window}&model=house-model`);
    expect(body.groupBy).toBe('run');
    expect(body).toEqual(
      roundTrip(await server.analytics.latencyPercentiles({ ...filter, model: 'house-model' }, { groupBy: 'run' })),
    );
  });

  it('series with an explicit and an automatic interval', async () => {
    const hourly = await get<LatencySeries>(`/latency/series?${window}&groupBy=agent&interval=3600`);
    expect(hourly.status).toBe(200);
    expect(hourly.body.intervalSeconds).toBe(3600);
    expect(hourly.body).toEqual(
      roundTrip(await server.analytics.latencySeries(filter, { groupBy: 'agent', intervalSeconds: 3600, topN: 10 })),
    );
    const auto = await get<LatencySeries>(`/latency/series?${window}`);
    expect(auto.body).toEqual(roundTrip(await server.analytics.latencySeries(filter, { groupBy: 'run' })));
  });

  it('run-duration histogram: the failed runs in the first bin, the successful ones in the last', async () => {
    const { status, body } = await get<RunHistogram>(`/latency/histogram?${window}&agent=alpha&buckets=3`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ metric: 'duration', unit: 'ns', runs: 20 });
    expect(body.buckets.map((b) => b.runs)).toEqual([4, 0, 16]);
    expect(body.buckets[0]!.from).toBe(body.min);
    expect(body.buckets[2]!.to).toBe(body.max);
    expect(body.min).toBeGreaterThanOrEqual(110 * MS);
    expect(body.max).toBeGreaterThanOrEqual(410 * MS);
    expect(body).toEqual(
      roundTrip(await server.analytics.runHistogram({ ...filter, agent: 'alpha' }, { metric: 'duration', buckets: 3 })),
    );
    expect((await get<RunHistogram>(`/latency/histogram?${window}`)).body.buckets).toHaveLength(30);
  });

  it('tail attribution matches the facade', async () => {
    const { status, body } = await get<TailAttribution>(`/latency/tail?${window}&agent=alpha`);
    expect(status).toBe(200);
    expect(body.completedRuns).toBe(20);
    expect(body).toEqual(roundTrip(await server.analytics.tailAttribution({ ...filter, agent: 'alpha' })));
  });
});

describe('/cost and /prices', () => {
  it('summary, breakdown and series match the facade', async () => {
    const summary = await get<CostSummary>(`/cost/summary?${window}&agent=alpha`);
    expect(summary.status).toBe(200);
    expect(summary.body.totalUsd).toBeCloseTo(16 * 0.01, 9);
    expect(summary.body).toEqual(roundTrip(await server.analytics.cost({ ...filter, agent: 'alpha' })));
    const breakdown = await get<CostBreakdown>(`/cost/breakdown?${window}&groupBy=step`);
    expect(breakdown.body.rows.find((r) => r.key === 'draft')!.costUsd).toBeCloseTo(0.16, 9);
    expect(breakdown.body).toEqual(roundTrip(await server.analytics.costBreakdown(filter, { groupBy: 'step' })));
    const series = await get<CostSeries>(`/cost/series?${window}&interval=3600`);
    expect(series.body.intervalSeconds).toBe(3600);
    expect(series.body).toEqual(roundTrip(await server.analytics.costSeries(filter, { intervalSeconds: 3600 })));
  });

  it('summary: what looping runs cost, split by whether they failed, and the waste counting each run once', async () => {
    const { status, body } = await get<CostSummary>(`/cost/summary?${window}&agent=gamma`);
    expect(status).toBe(200);
    expect(body.totalUsd).toBeCloseTo(2, 9);
    expect(body.looping?.runs).toBe(1);
    expect(body.looping?.failedRuns).toBe(1);
    expect(body.looping?.costUsd).toBeCloseTo(0.5, 9);
    expect(body.looping?.failedUsd).toBeCloseTo(0.5, 9);
    expect(body.wasted.failedRunsUsd).toBeCloseTo(0.5, 9);
    expect(body.wasted.loopingRunsUsd).toBeCloseTo(0.5, 9);
    expect(body.wasted.totalUsd).toBeCloseTo(1, 9);
    expect(body.wasted.share).toBeCloseTo(0.5, 9);
    expect(body).toEqual(roundTrip(await server.analytics.cost({ ...filter, agent: 'gamma' })));
    // no loops: zero, not unknown
    const alpha = await get<CostSummary>(`/cost/summary?${window}&agent=alpha`);
    expect(alpha.body.looping).toEqual({ runs: 0, costUsd: 0, failedRuns: 0, failedUsd: 0 });
    expect(alpha.body.wasted.loopingRunsUsd).toBe(0);
  });

  it('run-cost histogram: $0 failed runs apart from $0.01 successes; one bin when every run costs the same', async () => {
    const alpha = await get<RunHistogram>(`/cost/histogram?${window}&agent=alpha&buckets=2`);
    expect(alpha.status).toBe(200);
    expect(alpha.body).toMatchObject({ metric: 'cost', unit: 'usd', runs: 20, min: 0 });
    expect(alpha.body.max).toBeCloseTo(0.01, 12);
    expect(alpha.body.buckets.map((b) => b.runs)).toEqual([4, 16]);
    const gamma = await get<RunHistogram>(`/cost/histogram?${window}&agent=gamma`);
    expect(gamma.body.buckets).toHaveLength(1);
    expect(gamma.body.buckets[0]!.runs).toBe(4);
    expect(gamma.body).toEqual(
      roundTrip(await server.analytics.runHistogram({ ...filter, agent: 'gamma' }, { metric: 'cost', buckets: 30 })),
    );
    const none = await get<RunHistogram>(`/cost/histogram?${window}&agent=nobody`);
    expect(none.body).toMatchObject({ runs: 0, buckets: [] });
  });

  it('a price override set through the API prices spans, and deleting it unprices them again', async () => {
    const before = await get<CostSummary>(`/cost/summary?${window}&agent=beta`);
    expect(before.body.totalUsd).toBe(0);
    const put = await call<{ price: EffectivePrice }>('PUT', '/prices/house-model', {
      inputPerMTok: 2,
      cachedInputPerMTok: 1,
      outputPerMTok: 8,
      source: 'contract',
    });
    expect(put.status).toBe(200);
    expect(put.body.price).toMatchObject({
      model: 'house-model',
      origin: 'override',
      inputPerMTok: 2,
      source: 'contract',
    });
    const listed = await get<{ prices: EffectivePrice[] }>('/prices');
    expect(listed.body.prices.find((p) => p.model === 'house-model')?.origin).toBe('override');
    const priced = await get<CostSummary>(`/cost/summary?${window}&agent=beta`);
    expect(priced.body.totalUsd).toBeCloseTo(10 * 2, 9);
    const del = await call<{ deleted: string; price: EffectivePrice | null }>('DELETE', '/prices/house-model');
    expect(del.body).toEqual({ deleted: 'house-model', price: null });
    const after = await get<CostSummary>(`/cost/summary?${window}&agent=beta`);
    expect(after.body.totalUsd).toBe(0);
  });

  it.each([
    [{ inputPerMTok: -1, cachedInputPerMTok: 0, outputPerMTok: 0 }, /inputPerMTok/],
    [{ inputPerMTok: 1, outputPerMTok: 1 }, /cachedInputPerMTok/],
    [{ inputPerMTok: 1, cachedInputPerMTok: 1, outputPerMTok: 1, extra: true }, /extra/],
  ])('PUT /prices refuses %j', async (body, message) => {
    const res = await call<{ error: { message: string } }>('PUT', '/prices/x', body);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(message);
  });
});

describe('query validation', () => {
  it.each([
    ['/latency/percentiles?groupBy=service', /groupBy is one of step, tool, model, agent, run/],
    ['/latency/percentiles?precision=rough', /precision/],
    ['/latency/series?interval=120', /interval is auto or one of 60, 300, 900, 3600, 21600, 86400/],
    [`/latency/series?from=${base - 30 * 24 * HOUR}&to=${base}&interval=60`, /43200 buckets/],
    ['/latency/tail?groupBy=step', /unknown query parameter groupBy/],
    ['/cost/breakdown?groupBy=agent', /groupBy is one of step, tool, model/],
    ['/cost/series?interval=0', /interval/],
    ['/cost/histogram?buckets=0', /buckets/],
    ['/latency/histogram?buckets=201', /buckets/],
    ['/cost/summary?attr.k%3D=v', /attr\.k=/],
    [`/cost/summary?from=${to}&to=${to}`, /from: must be before to/],
  ])('%s → 400', async (path, message) => {
    const { status, body } = await get<{ error: { code: string; message: string } }>(path);
    expect(status).toBe(400);
    expect(body.error.message).toMatch(message);
  });
});
