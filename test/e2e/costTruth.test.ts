import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Analytics } from '@telltale/analytics';
import {
  DEFAULT_PRICES,
  exactPercentiles,
  generateDataset,
  shuffleForDelivery,
  smallDataset,
  type RunTruth,
} from '@telltale/datasets';
import { Store, type AnalyticsFilter, type SpanRecord, type StoreRows } from '@telltale/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SCRAMBLED = '-scrambled';
const close = (actual: number | null | undefined, expected: number, what: string): void => {
  expect(Math.abs((actual ?? Number.NaN) - expected), `${what}: ${actual} vs ${expected}`).toBeLessThan(1e-9);
};
const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

describe('cost against the generator truth', () => {
  const { spans, truth } = generateDataset(smallDataset());
  const projects = [...new Set(truth.runs.map((r) => r.projectId))];
  let dir: string;
  let store: Store;
  let analytics: Analytics;
  const filterFor = (projectId: string): AnalyticsFilter => ({
    projectId,
    fromUnixNano: truth.startNs,
    toUnixNano: truth.endNs + 1n,
  });
  const runsOf = (projectId: string): RunTruth[] => truth.runs.filter((r) => r.projectId === projectId);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-costtruth-'));
    store = await Store.open({ kind: 'embedded', dataDir: dir });
    await store.insertSpans(spans);
    for (const batch of shuffleForDelivery(spans, 11)) {
      await store.insertSpans(batch.map((s): SpanRecord => ({ ...s, projectId: s.projectId + SCRAMBLED })));
    }
    analytics = new Analytics(store, { pricesFor: () => DEFAULT_PRICES });
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('has runs with explicit costs, priced tokens, cached tokens, aggregate spans and unpriced models', () => {
    expect(spans.some((s) => s.costUsd !== null && s.stepKind === 'llm')).toBe(true);
    expect(spans.some((s) => s.costUsd === null && s.cachedInputTokens > 0)).toBe(true);
    expect(
      spans.some((s) => (s.stepKind === 'handoff' || s.stepKind === '' || s.stepKind === 'run') && s.inputTokens > 0),
    ).toBe(true);
    expect(truth.runs.some((r) => r.unpricedSpans > 0)).toBe(true);
  });

  it('gives every run its true cost, tokens, unpriced spans and attempt groups (ordered and scrambled delivery)', async () => {
    for (const projectId of projects) {
      const expected = runsOf(projectId);
      for (const stored of [projectId, projectId + SCRAMBLED]) {
        const { runs, total } = await analytics.listRuns(
          { projectId: stored, fromUnixNano: truth.startNs, toUnixNano: truth.endNs + 1n },
          { limit: 10_000, offset: 0 },
        );
        expect(total).toBe(expected.length);
        const byId = new Map<string, StoreRows.RunSummary>(runs.map((r) => [r.runId, r]));
        for (const t of expected) {
          const got = byId.get(t.runId);
          expect(got, t.runId).toBeDefined();
          close(got!.costUsd, t.costUsd, `${stored}/${t.runId} cost`);
          expect(
            {
              outcome: got!.outcome,
              input: got!.inputTokens,
              output: got!.outputTokens,
              cached: got!.cachedInputTokens,
              unpriced: got!.unpricedSpans,
              groups: got!.attemptGroups,
            },
            t.runId,
          ).toEqual({
            outcome: t.outcome,
            input: t.inputTokens,
            output: t.outputTokens,
            cached: t.cachedInputTokens,
            unpriced: t.unpricedSpans,
            groups: t.attemptGroups,
          });
        }
      }
    }
  });

  it('reports run-cost percentiles equal to the exact nearest-rank reference, and the totals', async () => {
    expect(truth.runs.filter((r) => r.loops.length > 0 && r.costUsd > 0).length).toBeGreaterThan(10);
    for (const projectId of projects) {
      const runs = runsOf(projectId);
      const completed = runs.filter((r) => r.outcome !== 'incomplete').map((r) => r.costUsd);
      const [p50, p95, p99] = exactPercentiles(completed, [0.5, 0.95, 0.99]);
      const success = runs.filter((r) => r.outcome === 'success');
      const failed = runs.filter((r) => r.outcome === 'failure');
      for (const stored of [projectId, projectId + SCRAMBLED]) {
        const c = await analytics.cost(filterFor(stored));
        expect(c.runs).toMatchObject({ total: runs.length, success: success.length, failure: failed.length });
        close(c.perRun.p50Usd, p50!, 'p50');
        close(c.perRun.p95Usd, p95!, 'p95');
        close(c.perRun.p99Usd, p99!, 'p99');
        close(c.perRun.maxUsd, Math.max(...completed), 'max');
        close(c.perRun.meanUsd, sum(completed) / completed.length, 'mean');
        close(c.totalUsd, sum(runs.map((r) => r.costUsd)), 'total');
        close(c.perSuccessfulRunUsd, sum(success.map((r) => r.costUsd)) / success.length, 'per successful run');
        close(c.wasted.failedRunsUsd, sum(failed.map((r) => r.costUsd)), 'wasted on failures');
        // looping runs (any detection, runaway included) split by outcome; the waste counts each run once
        const looping = runs.filter((r) => r.loops.length > 0);
        const loopingOk = looping.filter((r) => r.outcome !== 'failure');
        const loopingFailed = looping.filter((r) => r.outcome === 'failure');
        expect([c.looping?.runs, c.looping?.failedRuns]).toEqual([loopingOk.length, loopingFailed.length]);
        close(c.looping?.costUsd ?? NaN, sum(loopingOk.map((r) => r.costUsd)), 'looping runs that did not fail');
        close(c.looping?.failedUsd ?? NaN, sum(loopingFailed.map((r) => r.costUsd)), 'looping runs that failed');
        close(c.wasted.loopingRunsUsd ?? NaN, sum(loopingOk.map((r) => r.costUsd)), 'wasted on looping runs');
        close(
          c.wasted.totalUsd,
          sum(failed.map((r) => r.costUsd)) + sum(loopingOk.map((r) => r.costUsd)),
          'wasted in total',
        );
        expect(c.unpriced.spans).toBe(sum(runs.map((r) => r.unpricedSpans)));
        expect(c.unpriced.byModel.map((u) => u.model)).toEqual(c.unpriced.spans > 0 ? ['llama-3.1-8b'] : []);
      }
    }
  });

  it('filters by agent (the root name: incomplete runs have none yet)', async () => {
    for (const a of truth.agents) {
      const runs = truth.runs.filter(
        (r) =>
          r.projectId === a.projectId && r.agent === a.agent && r.service === a.service && r.outcome !== 'incomplete',
      );
      const c = await analytics.cost({ ...filterFor(a.projectId), service: a.service, agent: a.agent });
      expect(c.runs.total, a.agent).toBe(runs.length);
      close(c.totalUsd, sum(runs.map((r) => r.costUsd)), `${a.agent} cost`);
    }
  });

  it('breaks cost down by model as generated', async () => {
    const got = new Map<
      string,
      { costUsd: number; calls: number; inputTokens: number; outputTokens: number; cachedInputTokens: number }
    >();
    for (const projectId of projects) {
      for (const row of (await analytics.costBreakdown(filterFor(projectId), { groupBy: 'model' })).rows) {
        if (row.key === '') continue;
        const g = got.get(row.key) ?? { costUsd: 0, calls: 0, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 };
        got.set(row.key, {
          costUsd: g.costUsd + row.costUsd,
          calls: g.calls + row.calls,
          inputTokens: g.inputTokens + row.inputTokens,
          outputTokens: g.outputTokens + row.outputTokens,
          cachedInputTokens: g.cachedInputTokens + row.cachedInputTokens,
        });
      }
    }
    expect([...got.keys()].sort()).toEqual(truth.models.map((m) => m.model).sort());
    for (const m of truth.models) {
      const g = got.get(m.model)!;
      close(g.costUsd, m.costUsd, `${m.model} cost`);
      expect(
        {
          calls: g.calls,
          inputTokens: g.inputTokens,
          outputTokens: g.outputTokens,
          cachedInputTokens: g.cachedInputTokens,
        },
        m.model,
      ).toEqual({
        calls: m.calls,
        inputTokens: m.inputTokens,
        outputTokens: m.outputTokens,
        cachedInputTokens: m.cachedInputTokens,
      });
    }
  });
});
