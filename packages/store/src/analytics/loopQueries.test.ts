import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../Store.js';
import type { SpanRecord } from '../spans/SpanRecord.js';
import { loopRun, type LoopRunStep } from '../testing/loopRun.js';
import { shuffled } from '../testing/spanAt.js';
import { EMPTY_PRICE_TABLE, type AnalyticsFilter } from './AnalyticsFilter.js';
import type { LoopThresholds } from './loopTypes.js';

const MS = 1_000_000;
const HOUR_NS = 3_600_000_000_000n;
const T0 = ((BigInt(Date.now()) * 1_000_000n) / HOUR_NS) * HOUR_NS - 2n * HOUR_NS;
const T: LoopThresholds = { repeat: 3, pingPongCycles: 3, runawayMultiplier: 3, runawayHardCap: 10 };

const tool = (name: string, args: string, extra: Partial<LoopRunStep> = {}): LoopRunStep => ({
  kind: 'tool',
  name,
  args,
  ...extra,
});
const acts = (k: number): LoopRunStep[] => Array.from({ length: k }, (_, i) => ({ kind: 'act', name: `act-${i}` }));

/** Runs one second apart; `agent` 'a' unless set; the expectations below are worked out by hand. */
function runs(projectId: string): SpanRecord[] {
  const defs: Array<{ runId: string; agent?: string; ok?: boolean; incomplete?: boolean; steps: LoopRunStep[] }> = [
    // repeated action: search(h1) three times (two wasted: 2 ms, $0.02); fetch once
    {
      runId: 'repeat',
      steps: [
        { kind: 'llm', name: 'think' },
        tool('search', 'h1', { costUsd: 0.01 }),
        { kind: 'llm', name: 'think' },
        tool('search', 'h1', { costUsd: 0.01 }),
        tool('fetch', 'h2'),
        tool('search', 'h1', { costUsd: 0.01 }),
      ],
    },
    // only two repeats: clean
    { runId: 'two', steps: [tool('search', 'h1'), tool('search', 'h1'), tool('fetch', 'h2')] },
    // no progress: state s1 on plan, validate, plan (wasted: the last two, 2 ms each)
    {
      runId: 'state',
      ok: false,
      steps: [
        { kind: 'plan', name: 'plan', state: 's1' },
        { kind: 'act', name: 'act' },
        { kind: 'validate', name: 'check', state: 's1', durationMs: 2 },
        { kind: 'plan', name: 'plan', state: 's1', durationMs: 2 },
      ],
    },
    // no progress: three consecutive failed validations with output o1 (a plan between does not break it)
    {
      runId: 'valid',
      ok: false,
      steps: [
        { kind: 'validate', name: 'check', ok: false, output: 'o1' },
        { kind: 'plan', name: 'plan' },
        { kind: 'validate', name: 'check', ok: false, output: 'o1', durationMs: 3 },
        { kind: 'validate', name: 'check', ok: false, output: 'o1', durationMs: 3 },
        { kind: 'act', name: 'act' },
      ],
    },
    // a success, or another output, breaks the streak: clean
    {
      runId: 'valid-broken',
      ok: false,
      steps: [
        { kind: 'validate', name: 'check', ok: false, output: 'o1' },
        { kind: 'validate', name: 'check', ok: true, output: 'o1' },
        { kind: 'validate', name: 'check', ok: false, output: 'o1' },
        { kind: 'validate', name: 'check', ok: false, output: 'o2' },
        { kind: 'validate', name: 'check', ok: false, output: 'o1' },
      ],
    },
    // ping-pong: A B A B A B (3 cycles; the last four calls wasted, $0.001 each)
    { runId: 'pp', steps: ['A', 'B', 'A', 'B', 'A', 'B'].map((t, i) => tool(t, `x${i}`, { costUsd: 0.001 })) },
    // A B A B (2 cycles), C, A B A B A (still 2 cycles): clean
    { runId: 'pp2', steps: ['A', 'B', 'A', 'B', 'C', 'A', 'B', 'A', 'B', 'A'].map((t, i) => tool(t, `y${i}`)) },
    // both: A(h) B(g) ×3 is two repeated actions and a ping-pong over the same four wasted spans
    { runId: 'both', steps: ['A', 'B', 'A', 'B', 'A', 'B'].map((t) => tool(t, t === 'A' ? 'h' : 'g')) },
    // agent b: median steps 2 → limit max(3 × 2, 10) = 10; b3 has 14 steps, the last 4 wasted
    { runId: 'b1', agent: 'b', steps: acts(2) },
    { runId: 'b2', agent: 'b', steps: acts(2) },
    { runId: 'b3', agent: 'b', steps: acts(14) },
    // incomplete runs: the hard cap (10) is the limit
    { runId: 'inc10', incomplete: true, steps: acts(10) },
    { runId: 'inc11', incomplete: true, steps: acts(11) },
  ];
  return defs.flatMap((d, i) =>
    loopRun({ ...d, agent: d.agent ?? 'a', projectId, startNs: T0 + BigInt(i) * 1_000_000_000n }),
  );
}

describe('loop queries', () => {
  let dir: string;
  let store: Store;
  const filter: AnalyticsFilter = { projectId: 'p1', fromUnixNano: T0 - 1n, toUnixNano: T0 + HOUR_NS };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-loops-'));
    store = await Store.open({ kind: 'embedded', dataDir: dir });
    const p1 = runs('p1');
    await store.insertSpans(p1);
    // the same spans in project p2, shuffled and sent in three batches
    const mixed = shuffled(
      p1.map((s) => ({ ...s, projectId: 'p2' })),
      7,
    );
    const third = Math.ceil(mixed.length / 3);
    for (let i = 2; i >= 0; i--) await store.insertSpans(mixed.slice(i * third, (i + 1) * third));
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds every kind with its count, waste and runaway limit', async () => {
    const page = await store.metrics.loopPage(filter, EMPTY_PRICE_TABLE, T, { limit: 50, offset: 0 });
    const got = page.detections.map((d) => [
      d.runId,
      d.variant,
      d.count,
      d.wastedNs,
      Number(d.wastedCostUsd.toFixed(9)),
    ]);
    expect(got).toEqual([
      ['inc11', 'step_count', 11, 1 * MS, 0],
      ['b3', 'step_count', 14, 4 * MS, 0],
      ['both', 'tool_args', 3, 2 * MS, 0],
      ['both', 'tool_args', 3, 2 * MS, 0],
      ['both', 'alternation', 3, 4 * MS, 0],
      ['pp', 'alternation', 3, 4 * MS, 0.004],
      ['valid', 'failed_validation', 3, 6 * MS, 0],
      ['state', 'state_hash', 3, 4 * MS, 0],
      ['repeat', 'tool_args', 3, 2 * MS, 0.02],
    ]);
    const b3 = page.detections.find((d) => d.runId === 'b3')!;
    expect([b3.agentMedianSteps, b3.stepLimit, b3.agent, b3.runOutcome]).toEqual([2, 10, 'b', 'success']);
    const inc = page.detections.find((d) => d.runId === 'inc11')!;
    expect([inc.agentMedianSteps, inc.stepLimit, inc.runOutcome]).toEqual([null, 10, 'incomplete']);
    const state = page.detections.find((d) => d.runId === 'state')!;
    expect([state.agentMedianSteps, state.stepLimit, state.runOutcome]).toEqual([6, 18, 'failure']);
    // the anchor is the first span of the detection: the run's third step for 'state' is not it, the first is
    expect(BigInt(state.anchorStartNs) - BigInt(state.runStartUnixNano)).toBe(1_000_000n);
    expect(page.total).toBe(9);
    expect(page.runs).toBe(13);
  });

  it('counts the runs of a page with no looping run, and lists none', async () => {
    const clean = { ...filter, runIds: ['valid-broken', 'pp2', 'b1'] };
    const page = await store.metrics.loopPage(clean, EMPTY_PRICE_TABLE, T, { limit: 10, offset: 0 });
    expect([page.runs, page.total, page.detections.length, page.overall.runsFlagged]).toEqual([3, 0, 0, 0]);
  });

  it('totals per kind count runs once and wasted spans once', async () => {
    const page = await store.metrics.loopPage(filter, EMPTY_PRICE_TABLE, T, { limit: 1, offset: 0 });
    const round = (t: {
      runsFlagged: number;
      detections: number;
      wastedNs: number;
      wastedCostUsd: number;
    }): number[] => [t.runsFlagged, t.detections, t.wastedNs, Number(t.wastedCostUsd.toFixed(9))];
    expect(round(page.byKind.repeated_action)).toEqual([2, 3, 6 * MS, 0.02]);
    expect(round(page.byKind.no_progress)).toEqual([2, 2, 10 * MS, 0]);
    expect(round(page.byKind.ping_pong)).toEqual([2, 2, 8 * MS, 0.004]);
    expect(round(page.byKind.runaway)).toEqual([2, 2, 5 * MS, 0]);
    // 'both' wastes the same four spans in three detections: 4 ms once
    expect(round(page.overall)).toEqual([7, 9, 25 * MS, 0.024]);
    expect(page.detections).toHaveLength(1);
  });

  it('pages, filters by kind and orders by waste', async () => {
    const p2 = await store.metrics.loopPage(filter, EMPTY_PRICE_TABLE, T, {
      limit: 2,
      offset: 2,
      kind: 'repeated_action',
    });
    expect(p2.total).toBe(3);
    expect(p2.detections.map((d) => d.runId)).toEqual(['repeat']);
    const byCost = await store.metrics.loopPage(filter, EMPTY_PRICE_TABLE, T, {
      limit: 2,
      offset: 0,
      orderBy: 'wasted_cost',
    });
    expect(byCost.detections.map((d) => d.runId)).toEqual(['repeat', 'pp']);
    const byTime = await store.metrics.loopPage(filter, EMPTY_PRICE_TABLE, T, {
      limit: 1,
      offset: 0,
      orderBy: 'wasted_time',
    });
    expect(byTime.detections.map((d) => d.runId)).toEqual(['valid']);
  });

  it('gives the loop rate per interval', async () => {
    const hourly = await store.metrics.loopRate(filter, EMPTY_PRICE_TABLE, T, 3600);
    expect(hourly).toEqual([{ bucketStartMs: Number(T0 / 1_000_000n), runs: 13, loopingRuns: 7 }]);
    const perSecond = await store.metrics.loopRate(filter, EMPTY_PRICE_TABLE, T, 1);
    expect(perSecond.map((b) => b.loopingRuns)).toEqual([1, 0, 1, 1, 0, 1, 0, 1, 0, 0, 1, 0, 1]);
    await expect(store.metrics.loopRate(filter, EMPTY_PRICE_TABLE, T, 0)).rejects.toThrow(
      expect.objectContaining({ code: 'BAD_REQUEST' }),
    );
  });

  it('flags runs, with bound medians for a page of runs', async () => {
    const flags = await store.metrics.runLoopFlags(filter, EMPTY_PRICE_TABLE, T);
    expect(flags.map((f) => [f.runId, f.kinds, f.detections, f.wastedNs])).toEqual([
      ['b3', ['runaway'], 1, 4 * MS],
      ['both', ['repeated_action', 'ping_pong'], 3, 4 * MS],
      ['inc11', ['runaway'], 1, 1 * MS],
      ['pp', ['ping_pong'], 1, 4 * MS],
      ['repeat', ['repeated_action'], 1, 2 * MS],
      ['state', ['no_progress'], 1, 4 * MS],
      ['valid', ['no_progress'], 1, 6 * MS],
    ]);
    const onlyB3 = { ...filter, runIds: ['b3'] };
    // alone, b3's own 14 steps would be the median: pass the window's medians instead
    expect(await store.metrics.runLoopFlags(onlyB3, EMPTY_PRICE_TABLE, T)).toEqual([]);
    const medians = await store.metrics.agentStepMedians(filter, EMPTY_PRICE_TABLE);
    expect(medians).toEqual([
      { service: 'svc', agent: 'a', medianSteps: 6 },
      { service: 'svc', agent: 'b', medianSteps: 2 },
    ]);
    const b3 = await store.metrics.runLoopFlags(onlyB3, EMPTY_PRICE_TABLE, T, medians);
    expect(b3.map((f) => [f.runId, f.kinds])).toEqual([['b3', ['runaway']]]);
  });

  it("returns a run's steps in order for the evidence", async () => {
    const steps = await store.metrics.loopSteps({ ...filter, runIds: ['pp', 'repeat'] }, EMPTY_PRICE_TABLE);
    expect(steps.filter((s) => s.runId === 'pp').map((s) => s.name)).toEqual(['A', 'B', 'A', 'B', 'A', 'B']);
    const search = steps.find((s) => s.runId === 'repeat' && s.kind === 'tool')!;
    expect(search).toMatchObject({ name: 'search', argsHash: 'h1', ok: true, durationNs: MS, costUsd: 0.01 });
    expect(steps.filter((s) => s.runId === 'repeat')).toHaveLength(6);
  });

  it('gives the same answers whatever order the spans arrived in', async () => {
    const strip = <T extends object>(x: T): T => JSON.parse(JSON.stringify(x)) as T;
    const a = await store.metrics.loopPage(filter, EMPTY_PRICE_TABLE, T, { limit: 50, offset: 0 });
    const b = await store.metrics.loopPage({ ...filter, projectId: 'p2' }, EMPTY_PRICE_TABLE, T, {
      limit: 50,
      offset: 0,
    });
    expect(strip(b)).toEqual(strip(a));
    expect(a.detections.length).toBeGreaterThan(0);
  });

  it('rejects thresholds that make no sense as a bad request naming the threshold', async () => {
    await expect(
      store.metrics.loopPage(filter, EMPTY_PRICE_TABLE, { ...T, repeat: 1 }, { limit: 1, offset: 0 }),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringMatching(/threshold repeat must be a whole number from 2/),
    });
    await expect(
      store.metrics.loopPage(filter, EMPTY_PRICE_TABLE, { ...T, runawayMultiplier: 0 }, { limit: 1, offset: 0 }),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringMatching(/threshold runawayMultiplier must be a number > 0/),
    });
  });
});
