import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../Store.js';
import type { SpanRecord } from '../spans/SpanRecord.js';
import { makeSpan } from '../testing/makeSpan.js';
import type { AnalyticsFilter, PriceTable } from './AnalyticsFilter.js';

const HOUR_NS = 3_600_000_000_000n;
const MS = 1_000_000n;
// Two hours ago, aligned to the hour, so the series buckets are known.
const T0 = ((BigInt(Date.now()) * MS) / HOUR_NS) * HOUR_NS - 2n * HOUR_NS;
const M = 1e-6; // USD per token for a price of $1 per million tokens

/** gpt-4o: $2.50 / $1.25 cached / $10 per MTok; cheap: $1 / $0.50 / $2. */
const PRICES: PriceTable = {
  models: ['gpt-4o', 'cheap'],
  input: [2.5 * M, 1 * M],
  cachedInput: [1.25 * M, 0.5 * M],
  output: [10 * M, 2 * M],
};

let nextSpan = 1;
/** One span of run `run`; the root is `r<run>`; steps default to children of the root. */
function span(run: string, startMs: number, kind: string, name: string, extra: Partial<SpanRecord> = {}): SpanRecord {
  return makeSpan({
    runId: run,
    traceId: run.padEnd(32, '0'),
    spanId: (nextSpan++).toString(16).padStart(16, '0'),
    parentSpanId: kind === 'run' ? '' : `root-${run}`,
    name,
    stepKind: kind,
    stepName: kind === '' || kind === 'run' ? '' : name,
    attempt: kind === '' || kind === 'run' ? 0 : 1,
    isRunRoot: kind === 'run',
    statusCode: 1,
    startTimeUnixNano: T0 + BigInt(startMs) * MS,
    endTimeUnixNano: T0 + BigInt(startMs + 1) * MS,
    serviceName: 'svc',
    ...extra,
  });
}
const root = (run: string, startMs: number, agent: string, ok: boolean, extra: Partial<SpanRecord> = {}): SpanRecord =>
  span(run, startMs, 'run', agent, { spanId: `root-${run}`, statusCode: ok ? 1 : 2, ...extra });

/*
 * Known per-run costs (USD):
 * r1 success (agent a): 0.004 (dated gpt-4o, 400 of 1000 input cached) + 0.01 (tool, explicit) + 0.5 (explicit beats tokens);
 *    the root repeats the usage (aggregate: 0)                                                   = 0.514
 * r2 failure (agent a): handoff with usage (aggregate: 0) over a chat = 0.0225; Vercel parent without
 *    step kind (0) over doGenerate = 0.0002                                                      = 0.0227
 * r3 success (agent b): unpriced model (0) + cheap with cached > input (capped: all 1000 cached) = 0.0005
 * r4 incomplete: cheap 10000 input                                                              = 0.01
 * r5 failure (agent b), one hour later: tool 0.02 + an LLM span naming no model (unpriced)       = 0.02
 */
const SPANS: SpanRecord[] = [
  root('r1', 0, 'a', true, { model: 'gpt-4o', inputTokens: 2000, outputTokens: 300 }),
  span('r1', 1, 'llm', 'answer', {
    model: 'gpt-4o-2024-08-06',
    inputTokens: 1000,
    cachedInputTokens: 400,
    outputTokens: 200,
  }),
  span('r1', 2, 'tool', 'search', { toolName: 'search', costUsd: 0.01 }),
  span('r1', 3, 'llm', 'answer', { model: 'gpt-4o', inputTokens: 1000, outputTokens: 100, costUsd: 0.5 }),

  root('r2', 10, 'a', false),
  span('r2', 11, 'handoff', 'sub-agent', {
    spanId: 'handoff-r2',
    model: 'gpt-4o',
    inputTokens: 5000,
    outputTokens: 1000,
  }),
  span('r2', 12, 'llm', 'chat', { parentSpanId: 'handoff-r2', model: 'gpt-4o', inputTokens: 5000, outputTokens: 1000 }),
  span('r2', 13, '', 'ai.generateText', { spanId: 'vercel-r2', model: 'cheap', inputTokens: 100, outputTokens: 50 }),
  span('r2', 14, 'llm', 'ai.generateText.doGenerate', {
    parentSpanId: 'vercel-r2',
    model: 'cheap',
    inputTokens: 100,
    outputTokens: 50,
  }),

  root('r3', 20, 'b', true),
  span('r3', 21, 'llm', 'think', { model: 'mystery-1', inputTokens: 300, outputTokens: 30 }),
  span('r3', 22, 'llm', 'cheap-call', {
    model: 'cheap',
    inputTokens: 1000,
    cachedInputTokens: 2000,
    attributes: [{ key: 'tier', value: 'pro' }],
  }),

  span('r4', 30, 'llm', 'late', { model: 'cheap', inputTokens: 10_000 }),

  root('r5', 3_600_005, 'b', false),
  span('r5', 3_600_006, 'tool', 'search', { toolName: 'search', costUsd: 0.02 }),
  span('r5', 3_600_007, 'llm', 'oops', { inputTokens: 10, outputTokens: 10 }),

  // another project: never counted
  root('x1', 0, 'a', true, { projectId: 'p2' }),
  span('x1', 1, 'llm', 'answer', { projectId: 'p2', model: 'gpt-4o', costUsd: 100 }),
];

const close = (actual: number, expected: number): void => expect(Math.abs(actual - expected)).toBeLessThan(1e-12);

describe('cost queries', () => {
  let dir: string;
  let store: Store;
  const filter: AnalyticsFilter = { projectId: 'p1', fromUnixNano: T0, toUnixNano: T0 + 3n * HOUR_NS };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-cost-'));
    store = await Store.open({ kind: 'embedded', dataDir: dir });
    await store.insertSpans(SPANS);
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sums run costs by outcome, priced or explicit, without double counting aggregate spans', async () => {
    const s = await store.metrics.runCostStats(filter, PRICES);
    expect(s).toMatchObject({ runs: 5, successRuns: 2, failureRuns: 2, incompleteRuns: 1, unpricedSpans: 2 });
    close(s.totalUsd, 0.514 + 0.0227 + 0.0005 + 0.01 + 0.02);
    close(s.successUsd, 0.514 + 0.0005);
    close(s.failureUsd, 0.0227 + 0.02);
    close(s.incompleteUsd, 0.01);
    // completed runs sorted: 0.0005, 0.02, 0.0227, 0.514 — nearest rank ⌈p·n⌉
    close(s.p50Usd, 0.02);
    close(s.p95Usd, 0.514);
    close(s.p99Usd, 0.514);
    close(s.maxUsd, 0.514);
    close(s.meanUsd, (0.514 + 0.0227 + 0.0005 + 0.02) / 4);
    // tokens of counted (non-aggregate) spans only; cached capped at input
    expect(s.inputTokens).toBe(1000 + 1000 + 5000 + 100 + 300 + 1000 + 10_000 + 10);
    expect(s.cachedInputTokens).toBe(400 + 1000);
    expect(s.outputTokens).toBe(200 + 100 + 1000 + 50 + 30 + 10);
  });

  it('prices nothing without a table: explicit costs only, the rest reported unpriced', async () => {
    const s = await store.metrics.runCostStats(filter, { models: [], input: [], output: [], cachedInput: [] });
    close(s.totalUsd, 0.01 + 0.5 + 0.02);
    expect(s.unpricedSpans).toBe(7); // every counted span with tokens and no explicit cost
  });

  it('applies run filters (agent) and span filters (model) to whole runs', async () => {
    const b = await store.metrics.runCostStats({ ...filter, agent: 'b' }, PRICES);
    expect(b.runs).toBe(2);
    close(b.totalUsd, 0.0205);
    const cheap = await store.metrics.runCostStats({ ...filter, model: 'cheap' }, PRICES);
    expect(cheap.runs).toBe(3);
    close(cheap.totalUsd, 0.0227 + 0.0005 + 0.01);
    const pro = await store.metrics.runCostStats({ ...filter, attributes: { tier: 'pro' } }, PRICES);
    expect(pro.runs).toBe(1);
    close(pro.totalUsd, 0.0005);
    expect((await store.metrics.runCostStats({ ...filter, attributes: { tier: 'free' } }, PRICES)).runs).toBe(0);
  });

  it('reports unpriced usage per model', async () => {
    expect(await store.metrics.unpricedUsage(filter, PRICES)).toEqual([
      { model: 'mystery-1', spans: 1, inputTokens: 300, cachedInputTokens: 0, outputTokens: 30 },
      { model: '', spans: 1, inputTokens: 10, cachedInputTokens: 0, outputTokens: 10 },
    ]);
    // with a filter: the unpriced spans of the kept runs (r2, r3, r4 use `cheap`), as RunCostStats counts them
    const cheap = { ...filter, model: 'cheap' };
    expect((await store.metrics.runCostStats(cheap, PRICES)).unpricedSpans).toBe(1);
    expect((await store.metrics.unpricedUsage(cheap, PRICES)).map((u) => [u.model, u.spans])).toEqual([
      ['mystery-1', 1],
    ]);
    expect(await store.metrics.unpricedUsage({ ...filter, agent: 'a' }, PRICES)).toEqual([]);
  });

  it('breaks cost down by model, tool and step', async () => {
    const byModel = Object.fromEntries(
      (await store.metrics.costGroups(filter, PRICES, 'model')).map((g) => [g.key, g]),
    );
    expect(Object.keys(byModel).sort()).toEqual(['', 'cheap', 'gpt-4o', 'gpt-4o-2024-08-06', 'mystery-1']);
    close(byModel['gpt-4o']!.costUsd, 0.5 + 0.0225);
    expect(byModel['gpt-4o']).toMatchObject({
      calls: 2,
      billedCalls: 2,
      inputTokens: 6000,
      outputTokens: 1100,
      unpricedSpans: 0,
    });
    close(byModel['gpt-4o-2024-08-06']!.costUsd, 0.004);
    expect(byModel['gpt-4o-2024-08-06']).toMatchObject({ calls: 1, cachedInputTokens: 400 });
    close(byModel.cheap!.costUsd, 0.0002 + 0.0005 + 0.01);
    expect(byModel.cheap).toMatchObject({ calls: 3, cachedInputTokens: 1000 });
    expect(byModel['mystery-1']).toMatchObject({ costUsd: 0, calls: 1, unpricedSpans: 1 });
    close(byModel['']!.costUsd, 0.03);
    expect(byModel['']).toMatchObject({ calls: 3, unpricedSpans: 1 });

    const byTool = await store.metrics.costGroups(filter, PRICES, 'tool');
    expect(byTool.map((g) => g.key)).toEqual(['', 'search']);
    close(byTool[1]!.costUsd, 0.03);
    expect(byTool[1]!.calls).toBe(2);

    const byStep = Object.fromEntries(
      (await store.metrics.costGroups(filter, PRICES, 'step')).map((g) => [g.key, g.costUsd]),
    );
    close(byStep.answer!, 0.504);
    close(byStep.chat!, 0.0225);
    close(byStep['ai.generateText.doGenerate']!, 0.0002);
    expect(byStep['sub-agent']).toBeUndefined(); // aggregate span: not counted
    expect(byStep['']).toBeUndefined();

    const bModels = await store.metrics.costGroups({ ...filter, agent: 'b' }, PRICES, 'model');
    expect(bModels.map((g) => [g.key, Math.round(g.costUsd * 1e6)])).toEqual([
      ['', 20_000],
      ['cheap', 500],
      ['mystery-1', 0],
    ]);
  });

  it('gives a cost series by run start', async () => {
    const series = await store.metrics.costSeries(filter, PRICES, 3600);
    const hourMs = Number(T0 / MS);
    expect(series.map((b) => [b.bucketStartMs - hourMs, b.runs, b.completedRuns])).toEqual([
      [0, 4, 3],
      [3_600_000, 1, 1],
    ]);
    close(series[0]!.totalUsd, 0.514 + 0.0227 + 0.0005 + 0.01);
    close(series[0]!.failureUsd, 0.0227);
    close(series[0]!.p50Usd, 0.0227);
    close(series[0]!.maxUsd, 0.514);
    close(series[1]!.p95Usd, 0.02);
    await expect(store.metrics.costSeries(filter, PRICES, 0)).rejects.toThrow(
      expect.objectContaining({ code: 'BAD_REQUEST' }),
    );
  });

  it('lists runs with priced costs and attempt groups', async () => {
    const { runs, total } = await store.runs.listRuns({ projectId: 'p1' }, { limit: 10, offset: 0 }, PRICES);
    expect(total).toBe(5);
    const byId = Object.fromEntries(runs.map((r) => [r.runId, r]));
    close(byId.r1!.costUsd, 0.514);
    expect(byId.r1).toMatchObject({
      attemptGroups: 3,
      inputTokens: 2000,
      cachedInputTokens: 400,
      outputTokens: 300,
      unpricedSpans: 0,
      name: 'a',
    });
    close(byId.r2!.costUsd, 0.0227);
    close(byId.r5!.costUsd, 0.02);
    expect(byId.r5!.unpricedSpans).toBe(1);
    expect(byId.r4).toMatchObject({ outcome: 'incomplete', name: 'late', attemptGroups: 1 });
    const b = await store.runs.listRuns(
      { projectId: 'p1', agent: 'b', outcome: 'failure' },
      { limit: 10, offset: 0 },
      PRICES,
    );
    expect(b.runs.map((r) => r.runId)).toEqual(['r5']);
  });
});
