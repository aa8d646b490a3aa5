import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TelltaleError } from '@telltale/semconv';
import { Store, type AnalyticsFilter, type SpanRecord, type StoreRows } from '@telltale/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Analytics } from '../Analytics.js';

const HOUR_NS = 3_600_000_000_000n;
const T0 = ((BigInt(Date.now()) * 1_000_000n) / HOUR_NS) * HOUR_NS - HOUR_NS;
const MTOK = 1_000_000;

let nextId = 1;
function span(projectId: string, kind: string, extra: Partial<SpanRecord>): SpanRecord {
  const id = (nextId++).toString(16).padStart(16, '0');
  return {
    projectId,
    traceId: 'f'.repeat(32),
    spanId: id,
    parentSpanId: kind === 'run' ? '' : 'root',
    traceState: '',
    runId: 'r1',
    isRunRoot: kind === 'run',
    serviceName: 'svc',
    name: kind === 'run' ? 'agent' : 'call',
    spanKind: 1,
    stepKind: kind,
    stepName: kind === 'run' ? '' : 'call',
    attempt: kind === 'run' ? 0 : 1,
    toolName: '',
    toolArgsHash: '',
    stateHash: '',
    outputHash: '',
    sideEffect: false,
    model: '',
    provider: '',
    inputTokens: 0,
    outputTokens: 0,
    cachedInputTokens: 0,
    costUsd: null,
    startTimeUnixNano: T0 + BigInt(nextId) * 1000n,
    endTimeUnixNano: T0 + 10_000_000n,
    statusCode: 1,
    statusMessage: '',
    errorType: '',
    runOutcome: '',
    attributes: [],
    resourceAttributes: [],
    scopeName: '',
    scopeVersion: '',
    events: [],
    links: [],
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
    ...extra,
  };
}

/*
 * With the bundled table (gpt-4o $2.50 / $1.25 cached / $10; gpt-4o-mini $0.15 / $0.60):
 * dated gpt-4o: 0.8M × 2.5 + 0.2M × 1.25 + 0.1M × 10 = 3.25; gpt-4o-mini: 0.15 + 0.60 = 0.75;
 * in-house-llm: unpriced.
 */
const runSpans = (projectId: string): SpanRecord[] => [
  span(projectId, 'run', {
    spanId: 'root'.padEnd(16, '0'),
    model: 'gpt-4o',
    inputTokens: 9 * MTOK,
    outputTokens: 9 * MTOK,
  }),
  span(projectId, 'llm', {
    parentSpanId: 'root'.padEnd(16, '0'),
    model: 'gpt-4o-2024-08-06',
    inputTokens: MTOK,
    cachedInputTokens: 0.2 * MTOK,
    outputTokens: 0.1 * MTOK,
  }),
  span(projectId, 'llm', {
    parentSpanId: 'root'.padEnd(16, '0'),
    model: 'gpt-4o-mini',
    inputTokens: MTOK,
    outputTokens: MTOK,
  }),
  span(projectId, 'llm', { parentSpanId: 'root'.padEnd(16, '0'), model: 'in-house-llm', inputTokens: MTOK }),
];

const price = (model: string, input: number, cached: number, output: number): StoreRows.ModelPriceOverride => ({
  model,
  inputPerMTok: input,
  cachedInputPerMTok: cached,
  outputPerMTok: output,
  asOf: '2025-09-01',
  source: 'contract',
});
const close = (actual: number | undefined, expected: number): void =>
  expect(Math.abs((actual ?? Number.NaN) - expected)).toBeLessThan(1e-9);

describe('Analytics cost facade with project price overrides', () => {
  let dir: string;
  let store: Store;
  let analytics: Analytics;
  const filter: AnalyticsFilter = { projectId: 'p1', fromUnixNano: T0, toUnixNano: T0 + HOUR_NS };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-costfacade-'));
    store = await Store.open({ kind: 'embedded', dataDir: dir });
    await store.insertSpans([...runSpans('p1'), ...runSpans('p2')]);
    analytics = new Analytics(store);
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('prices with the bundled table (dated names as their base model) and reports the unpriced model', async () => {
    const c = await analytics.cost(filter);
    close(c.totalUsd, 3.25 + 0.75);
    close(c.perSuccessfulRunUsd ?? undefined, 4);
    expect(c.unpriced.byModel.map((u) => [u.model, u.inputTokens])).toEqual([['in-house-llm', MTOK]]);
    const { runs } = await analytics.listRuns({ projectId: 'p1' }, { limit: 10, offset: 0 });
    close(runs[0]?.costUsd, 4);
    expect(runs[0]).toMatchObject({ unpricedSpans: 1, attemptGroups: 3 });
    // the run's page prices each model call; the model the table has no price for stays unknown
    const spans = (await analytics.getRun('p1', runs[0]!.runId))!.spans;
    expect(spans.filter((s) => s.model === 'in-house-llm').map((s) => s.costUsd)).toEqual([null]);
    close(
      spans.reduce((n, s) => n + (s.costUsd ?? 0), 0),
      4,
    );
  });

  it('lets overrides win: base name, then an exact dated name, then a new model; other projects untouched', async () => {
    await analytics.setPrice('p1', price('gpt-4o', 5, 2.5, 20));
    // 0.8 × 5 + 0.2 × 2.5 + 0.1 × 20 = 6.5 — the cache was invalidated by the write
    close((await analytics.cost(filter)).totalUsd, 6.5 + 0.75);
    await analytics.setPrice('p1', price('gpt-4o-2024-08-06', 1, 1, 1));
    close((await analytics.cost(filter)).totalUsd, 1.1 + 0.75);
    await analytics.setPrice('p1', price('in-house-llm', 0.5, 0, 0));
    const c = await analytics.cost(filter);
    close(c.totalUsd, 1.1 + 0.75 + 0.5);
    expect(c.unpriced).toEqual({ spans: 0, byModel: [] });
    const r1 = await analytics.getRun('p1', 'r1');
    close(r1?.run.costUsd, 2.35);
    close(
      r1!.spans.reduce((n, s) => n + (s.costUsd ?? 0), 0),
      2.35,
    );
    // each model call priced; the run span's usage repeats its children's, so it is not
    expect(r1!.spans.filter((s) => s.stepKind === 'llm').every((s) => s.costUsd !== null)).toBe(true);
    expect(r1!.spans.find((s) => s.stepKind === 'run')?.costUsd).toBeNull();
    // the trace's spans are priced the same way
    const traced = await analytics.getTraceSpans('p1', r1!.run.traceId);
    expect(traced.map((s) => s.costUsd)).toEqual(r1!.spans.map((s) => s.costUsd));
    close((await analytics.cost({ ...filter, projectId: 'p2' })).totalUsd, 4);

    const byModel = await analytics.costBreakdown(filter, { groupBy: 'model' });
    expect(byModel.rows.map((r) => r.key)).toEqual(['gpt-4o-2024-08-06', 'gpt-4o-mini', 'in-house-llm']);
    close(byModel.totalUsd, 2.35);
    close(byModel.rows[0]?.share, 1.1 / 2.35);

    const listed = await analytics.prices('p1');
    const gpt4o = listed.find((p) => p.model === 'gpt-4o');
    expect(gpt4o).toMatchObject({
      origin: 'override',
      inputPerMTok: 5,
      source: 'contract',
      bundled: { inputPerMTok: 2.5 },
    });
    expect(listed.find((p) => p.model === 'in-house-llm')).toMatchObject({ origin: 'override' });
    expect((await analytics.prices('p2')).find((p) => p.model === 'gpt-4o')).toMatchObject({
      origin: 'bundled',
      inputPerMTok: 2.5,
    });
  });

  it('reverts to bundled prices when overrides are deleted', async () => {
    await analytics.deletePrice('p1', 'gpt-4o-2024-08-06');
    await analytics.deletePrice('p1', 'gpt-4o');
    close((await analytics.cost(filter)).totalUsd, 3.25 + 0.75 + 0.5);
  });

  it('rejects bad prices and series windows as bad requests', async () => {
    await expect(analytics.setPrice('p1', price('x', -1, 0, 0))).rejects.toBeInstanceOf(TelltaleError);
    await expect(analytics.costSeries(filter, { intervalSeconds: 0 })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    const s = await analytics.costSeries(filter, { intervalSeconds: 600 });
    expect(s.buckets).toHaveLength(6);
    close(s.buckets[0]?.totalUsd, 4.5);
    expect(s.buckets.slice(1).every((b) => b.runs === 0)).toBe(true);
  });
});
