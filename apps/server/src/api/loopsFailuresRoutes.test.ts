import type { FailureBreakdown, FailureSeries, LoopRateSeries, LoopsReport } from '@telltale/analytics';
import type { AnalyticsFilter, StoreRows } from '@telltale/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../http/startServer.js';
import { callApi, startScriptedServer } from '../testing/scriptedServer.js';
import type { ScriptedRun, ScriptedStep } from '../testing/sendScriptedRuns.js';

const HOUR = 3_600_000;
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

const search: ScriptedStep = { kind: 'tool', name: 'search', ms: 20 };
// looper: runs 0–5 call `search` with the same arguments three times (a repeated action); runs 4 and 5
// then fail at `fetch` (primary cause: loop); runs 6–9 search once.
function looperRun(i: number): ScriptedRun {
  const steps: ScriptedStep[] = i < 6 ? [search, search, search] : [search];
  if (i === 4 || i === 5) steps.push({ kind: 'tool', name: 'fetch', ms: 5, fails: true });
  return { startMs: base + i * 1000, steps };
}
// plain: 5 runs, run 0 fails at `fetch` (primary cause: tool_failure).
function plainRun(i: number): ScriptedRun {
  return { startMs: base + 100_000 + i * 1000, steps: [{ kind: 'tool', name: 'fetch', ms: 5, fails: i === 0 }] };
}

const get = <T>(path: string): Promise<{ status: number; body: T }> => callApi<T>(server, 'GET', path);
const roundTrip = (x: unknown): unknown => JSON.parse(JSON.stringify(x));

beforeAll(async () => {
  ({ server, stop } = await startScriptedServer([
    { agent: 'looper', runs: Array.from({ length: 10 }, (_, i) => looperRun(i)) },
    { agent: 'plain', runs: Array.from({ length: 5 }, (_, i) => plainRun(i)) },
  ]));
});

afterAll(() => stop?.());

describe('/runs filters shared with the analytics routes', () => {
  it('lists runs of an agent, or containing a step or a tool, with the outcome filter on top', async () => {
    const ids = async (query: string): Promise<number> =>
      (await get<{ total: number }>(`/runs?${window}&${query}`)).body.total;
    expect(await ids('agent=looper')).toBe(10);
    expect(await ids('agent=plain')).toBe(5);
    // fetch: looper runs 4 and 5, every plain run
    expect(await ids('tool=fetch')).toBe(7);
    expect(await ids('step=search&outcome=failure')).toBe(2);
    expect(await ids('model=none-such')).toBe(0);
    const page = await get<{ runs: { name: string }[] }>(`/runs?${window}&agent=plain&limit=50`);
    expect(new Set(page.body.runs.map((r) => r.name))).toEqual(new Set(['plain']));
  });

  it('takes ISO dates as window ends, and refuses a window that ends before it starts', async () => {
    const day = new Date().toISOString().slice(0, 10);
    const since = await get<{ total: number }>(`/runs?from=2020-01-01&to=${day}T23:59:59Z`);
    expect(since.status).toBe(200);
    expect(since.body.total).toBe(15);
    for (const path of ['/runs?from=2000&to=1000', '/sessions?from=2000&to=2000']) {
      const { status, body } = await get<{ error: { message: string } }>(path);
      expect(status).toBe(400);
      expect(body.error.message).toBe('invalid query parameter from: must be before to');
    }
  });
});

describe('/loops', () => {
  it('lists the six repeated actions with evidence, and matches the facade', async () => {
    const { status, body } = await get<LoopsReport>(`/loops?${window}`);
    expect(status).toBe(200);
    expect(body.runs).toBe(15);
    expect(body.total).toBe(6);
    expect(body.byKind.repeated_action.runsFlagged).toBe(6);
    expect(body.byKind.ping_pong.runsFlagged).toBe(0);
    expect(body.detections.every((d) => d.agent === 'looper' && d.count === 3 && d.evidence.spanCount === 3)).toBe(
      true,
    );
    expect(body).toEqual(roundTrip(await server.analytics.loops(filter)));
  });

  it('gives one run’s detections with their evidence spans (runIds)', async () => {
    const all = await get<LoopsReport>(`/loops?${window}`);
    const runId = all.body.detections[0]!.runId;
    const one = await get<LoopsReport>(`/loops?${window}&runIds=${encodeURIComponent(runId)}`);
    expect(one.status).toBe(200);
    expect(one.body.detections.map((d) => d.runId)).toEqual([runId]);
    expect(one.body.detections[0]!.evidence.spanIds).toHaveLength(3);
    expect(one.body).toEqual(roundTrip(await server.analytics.loops({ ...filter, runIds: [runId] })));
  });

  it('pages, filters by kind and takes thresholds', async () => {
    const page = await get<LoopsReport>(`/loops?${window}&limit=2&offset=4&orderBy=wasted_time`);
    expect(page.body.detections).toHaveLength(2);
    expect(page.body).toEqual(
      roundTrip(await server.analytics.loops(filter, { limit: 2, offset: 4, orderBy: 'wasted_time' })),
    );
    const none = await get<LoopsReport>(`/loops?${window}&kind=ping_pong`);
    expect(none.body.total).toBe(0);
    const strict = await get<LoopsReport>(`/loops?${window}&repeat=4`);
    expect(strict.body.total).toBe(0);
    expect(strict.body.thresholds.repeat).toBe(4);
  });

  it('loop rate per interval', async () => {
    const { body } = await get<LoopRateSeries>(`/loops/rate?${window}&interval=3600&agent=looper`);
    expect(body.points.reduce((n, p) => n + p.loopingRuns, 0)).toBe(6);
    expect(body.points.reduce((n, p) => n + p.runs, 0)).toBe(10);
    expect(body).toEqual(
      roundTrip(await server.analytics.loopRate({ ...filter, agent: 'looper' }, { intervalSeconds: 3600 })),
    );
  });

  it('per-run flags for the run ids asked', async () => {
    const all = await get<{ runs: StoreRows.RunLoopFlag[] }>(`/loops/runs?${window}`);
    expect(all.body.runs).toHaveLength(6);
    const ids = all.body.runs.slice(0, 2).map((r) => r.runId);
    const some = await get<{ runs: StoreRows.RunLoopFlag[] }>(
      `/loops/runs?${window}&runIds=${ids.join(',')},not-a-run`,
    );
    expect(some.body.runs.map((r) => r.runId).sort()).toEqual([...ids].sort());
    expect(some.body.runs.every((r) => r.kinds.includes('repeated_action'))).toBe(true);
  });
});

describe('/failures', () => {
  it('one primary cause per failed run, matching the facade', async () => {
    const { status, body } = await get<FailureBreakdown>(`/failures?${window}`);
    expect(status).toBe(200);
    expect(body.failedRuns).toBe(3);
    const runs = Object.fromEntries(body.causes.map((c) => [c.cause, c.runs]));
    expect(runs).toMatchObject({ loop: 2, tool_failure: 1, unknown: 0 });
    expect(body).toEqual(roundTrip(await server.analytics.failures(filter)));
  });

  it('series and per-run causes', async () => {
    const series = await get<FailureSeries>(`/failures/series?${window}&interval=900`);
    expect(series.body.intervalSeconds).toBe(900);
    expect(series.body).toEqual(roundTrip(await server.analytics.failureSeries(filter, { intervalSeconds: 900 })));
    const perRun = await get<{ runs: StoreRows.RunCause[] }>(`/failures/runs?${window}`);
    expect(perRun.body.runs.map((r) => r.cause).sort()).toEqual(['loop', 'loop', 'tool_failure']);
  });
});

describe('query validation', () => {
  it.each([
    ['/loops?kind=spin', /kind is one of repeated_action, no_progress, ping_pong, runaway/],
    ['/loops?orderBy=cost', /orderBy is one of recent, wasted_cost, wasted_time/],
    ['/loops?limit=0', /limit/],
    ['/loops?repeat=1', /repeat/],
    ['/loops?runawayMultiplier=0', /invalid query parameter runawayMultiplier: must be a number > 0 and ≤ 1000/],
    ['/loops/runs?pingPongCycles=2.5', /invalid query parameter pingPongCycles: must be a whole number from 2 to 1000/],
    ['/failures?runawayHardCap=x', /invalid query parameter runawayHardCap: must be a whole number from 1 to 1000000/],
    ['/loops/rate?interval=7', /interval is auto or one of/],
    ['/loops/runs?runIds=', /runIds lists at least one run id/],
    [`/failures/runs?runIds=${Array.from({ length: 501 }, (_, i) => `r${i}`).join(',')}`, /at most 500 run ids/],
    ['/failures?groupBy=cause', /unknown query parameter groupBy/],
    ['/failures/series?attr.=x', /attr\.: .*attribute key/],
  ])('%s → 400', async (path, message) => {
    const { status, body } = await get<{ error: { message: string } }>(path);
    expect(status).toBe(400);
    expect(body.error.message).toMatch(message);
  });
});
