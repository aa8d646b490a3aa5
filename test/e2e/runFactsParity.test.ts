import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Analytics } from '@telltale/analytics';
import { DEFAULT_PRICES, firstDifference, generateDataset, shuffleForDelivery, smallDataset } from '@telltale/datasets';
import { Store, type AnalyticsFilter, type SpanRecord } from '@telltale/store';
import { StoreInspector, runFilterOf } from '@telltale/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Both values agree (numbers to a relative 1e-9); the failure names the first difference. */
const expectNoDifference = (got: unknown, want: unknown, path: string): void =>
  expect(firstDifference(got, want, path)).toBeUndefined();

/*
 * The run facts (finalised once per run) against recomputing from the spans:
 * every run-level facade query gives the same numbers both ways, whether the
 * spans arrived in order, shuffled with late roots, or in two halves with a
 * query in between (so runs are finalised, then finalised again), and after
 * a restart that finds the facts missing.
 */
const END = 1_900_000_000_000_000_000n;

/** Every facade query whose numbers the run facts can give, by name. */
function runLevelQueries(analytics: Analytics, filter: AnalyticsFilter): Record<string, () => Promise<unknown>> {
  return {
    reliability: () => analytics.reliability(filter),
    compoundingCurve: () => analytics.compoundingCurve(filter),
    cost: () => analytics.cost(filter),
    durationHistogram: () => analytics.runHistogram(filter, { metric: 'duration', buckets: 40 }),
    costHistogram: () => analytics.runHistogram(filter, { metric: 'cost', buckets: 40 }),
    costSeries: () => analytics.costSeries(filter, { intervalSeconds: 3600 }),
    tailAttribution: () => analytics.tailAttribution(filter),
    loops: () => analytics.loops(filter, { limit: 500, orderBy: 'wasted_cost' }),
    loopRate: () => analytics.loopRate(filter, { intervalSeconds: 3600 }),
    runLoopFlags: () => analytics.runLoopFlags(filter),
    failures: () => analytics.failures(filter),
    failureSeries: () => analytics.failureSeries(filter, { intervalSeconds: 3600 }),
    runCauses: () => analytics.runCauses(filter),
    runsFirstPage: () => analytics.listRuns(runFilterOf(filter), { limit: 100, offset: 0 }),
    failedRunsThirdPage: () =>
      analytics.listRuns({ ...runFilterOf(filter), outcome: 'failure' }, { limit: 20, offset: 40 }),
  };
}

// Each test reads every facade query twice over thousands of runs: tens of seconds on
// a loaded 2-core machine, so the bound is generous rather than tight.
describe('run facts against recomputing from the spans', { timeout: 120_000 }, () => {
  const { spans, truth } = generateDataset(smallDataset({ runs: 1_500, endNs: END }));
  const projectIds = [...new Set(spans.map((s) => s.projectId))].sort();
  const window = { fromUnixNano: truth.startNs, toUnixNano: truth.endNs + 1n };
  let dir: string;
  let store: Store;
  let analytics: Analytics;

  const copy = (suffix: string, list: readonly SpanRecord[]): SpanRecord[] =>
    list.map((s) => ({ ...s, projectId: s.projectId + suffix }));

  async function expectParity(projectId: string, extra: Partial<AnalyticsFilter> = {}): Promise<void> {
    const filter: AnalyticsFilter = { projectId, ...window, ...extra };
    const facts = runLevelQueries(analytics, filter);
    const spansOnly = runLevelQueries(analytics, { ...filter, recompute: true });
    for (const [name, query] of Object.entries(facts)) {
      expectNoDifference(await query(), await spansOnly[name]!(), `${projectId} ${name}`);
    }
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-facts-parity-'));
    store = await Store.open({ kind: 'embedded', dataDir: dir });
    analytics = new Analytics(store, { pricesFor: () => DEFAULT_PRICES });
    await store.insertSpans(spans);
    for (const batch of shuffleForDelivery(copy('-shuffled', spans), 11, { batchSize: [300, 2_000] }))
      await store.insertSpans(batch);
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives the span queries’ numbers for spans in order and shuffled with late roots', async () => {
    for (const projectId of projectIds) {
      await expectParity(projectId);
      await expectParity(`${projectId}-shuffled`);
    }
    const reliability = await analytics.reliability({ projectId: projectIds[0]!, ...window });
    expect(reliability.observed.n, 'the dataset has completed runs to compare').toBeGreaterThan(100);
  });

  it('gives them with run filters (agent, service, run ids)', async () => {
    const projectId = projectIds[0]!;
    const run = truth.runs.find((r) => r.projectId === projectId && r.outcome === 'failure')!;
    await expectParity(projectId, { agent: run.agent });
    await expectParity(projectId, { service: run.service });
    const someRuns = truth.runs
      .filter((r) => r.projectId === projectId)
      .slice(0, 40)
      .map((r) => r.runId);
    await expectParity(projectId, { runIds: someRuns });
  });

  it('refinalises runs whose spans arrive after they were read', async () => {
    const projectId = projectIds[0]!;
    const suffix = '-halves';
    const scrambled = shuffleForDelivery(
      copy(
        suffix,
        spans.filter((s) => s.projectId === projectId),
      ),
      5,
      { batchSize: [200, 800] },
    );
    const half = Math.ceil(scrambled.length / 2);
    for (const batch of scrambled.slice(0, half)) await store.insertSpans(batch);
    const early = await analytics.reliability({ projectId: projectId + suffix, ...window });
    await expectParity(projectId + suffix);
    for (const batch of scrambled.slice(half)) await store.insertSpans(batch);
    await expectParity(projectId + suffix);
    const late = await analytics.reliability({ projectId: projectId + suffix, ...window });
    const whole = await analytics.reliability({ projectId, ...window });
    expectNoDifference(late, whole, 'late halves vs whole');
    expect(early.observed.n, 'the first half alone tells a different story').not.toBe(late.observed.n);
  });

  it('rebuilds missing facts when the store opens again', async () => {
    await new StoreInspector(store).truncate(['run_facts', 'run_step_facts']);
    const empty = await analytics.compoundingCurve({ projectId: projectIds[0]!, ...window });
    expect(empty.points).toEqual([]);
    await store.close();
    store = await Store.open({ kind: 'embedded', dataDir: dir });
    analytics = new Analytics(store, { pricesFor: () => DEFAULT_PRICES });
    expect(await store.runFacts.reconcile(), 'nothing left stale after open').toBe(0);
    for (const projectId of projectIds) await expectParity(projectId);
  });
});
