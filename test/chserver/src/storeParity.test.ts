import { LATENCY_GROUP_BYS } from '@telltale/semconv';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Analytics } from '@telltale/analytics';
import { DEFAULT_PRICES, firstDifference, generateDataset, shuffleForDelivery, smallDataset } from '@telltale/datasets';
import { Store, type AnalyticsFilter } from '@telltale/store';
import { StoreInspector, runFilterOf } from '@telltale/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChServer, type ChServerProcess } from './index.js';

/** Both values agree (numbers to a relative 1e-9); the failure names the first difference. */
const expectNoDifference = (got: unknown, want: unknown, path: string): void =>
  expect(firstDifference(got, want, path)).toBeUndefined();

/*
 * Remote mode for real: the store opened with `{ kind: 'remote', url }`
 * against the chserver process — migrations, inserts, the run facts and
 * every analytics query through the real @clickhouse/client over HTTP — and
 * the same spans in an embedded store. Every answer must be the same.
 */
const END = 1_900_000_000_000_000_000n;

/** The queries compared under the narrower filters (the full set runs per project). */
const FILTERED = ['reliability', 'cost', 'latency by step', 'loops', 'failures', 'runsFirstPage'];

/** Some queries take a few hundred ms on chDB (either engine): allow for a busy machine. */
const SLOW_TEST_MS = 180_000;

/** The facade's queries, by name. */
function queries(a: Analytics, f: AnalyticsFilter): Record<string, () => Promise<unknown>> {
  const q: Record<string, () => Promise<unknown>> = {
    reliability: () => a.reliability(f),
    compoundingCurve: () => a.compoundingCurve(f),
    cost: () => a.cost(f),
    costByModel: () => a.costBreakdown(f, { groupBy: 'model' }),
    costSeries: () => a.costSeries(f, { intervalSeconds: 3600 }),
    latencySeries: () => a.latencySeries(f, { groupBy: 'step', intervalSeconds: 3600 }),
    tailAttribution: () => a.tailAttribution(f),
    loops: () => a.loops(f, { limit: 500, orderBy: 'wasted_cost' }),
    loopRate: () => a.loopRate(f, { intervalSeconds: 3600 }),
    runLoopFlags: () => a.runLoopFlags(f),
    failures: () => a.failures(f),
    failureSeries: () => a.failureSeries(f, { intervalSeconds: 3600 }),
    runCauses: () => a.runCauses(f),
    runsFirstPage: () => a.listRuns(runFilterOf(f), { limit: 100, offset: 0 }),
    failedRunsSecondPage: () => a.listRuns({ ...runFilterOf(f), outcome: 'failure' }, { limit: 20, offset: 20 }),
  };
  for (const groupBy of LATENCY_GROUP_BYS) q[`latency by ${groupBy}`] = () => a.latencyPercentiles(f, { groupBy });
  return q;
}

describe('the store in remote mode against chserver, next to an embedded store', () => {
  const { spans, truth } = generateDataset(smallDataset({ runs: 600, endNs: END }));
  const projectIds = [...new Set(spans.map((s) => s.projectId))].sort();
  const window = { fromUnixNano: truth.startNs, toUnixNano: truth.endNs + 1n };
  let server: ChServerProcess;
  let embeddedDir: string;
  let embedded: Store;
  let remote: Store;
  let local: Analytics;
  let viaHttp: Analytics;

  async function expectParity(filter: AnalyticsFilter, label: string, only?: readonly string[]): Promise<void> {
    const want = queries(local, filter);
    const got = queries(viaHttp, filter);
    for (const [name, query] of Object.entries(want)) {
      if (only === undefined || only.includes(name))
        expectNoDifference(await got[name]!(), await query(), `${label} ${name}`);
    }
  }

  beforeAll(async () => {
    server = await startChServer();
    embeddedDir = mkdtempSync(join(tmpdir(), 'chserver-parity-'));
    [embedded, remote] = await Promise.all([
      Store.open({ kind: 'embedded', dataDir: embeddedDir }),
      Store.open({ kind: 'remote', url: server.url }),
    ]);
    // Out of order, in batches with late roots, as the collector delivers them; the same batches both ways.
    const batches = shuffleForDelivery(spans, 7, { batchSize: [500, 3_000] });
    for (const [i, batch] of batches.entries()) {
      await embedded.insertSpans(batch, { deduplicationToken: `batch-${i}` });
      await remote.insertSpans(batch, { deduplicationToken: `batch-${i}` });
    }
    local = new Analytics(embedded, { pricesFor: () => DEFAULT_PRICES });
    viaHttp = new Analytics(remote, { pricesFor: () => DEFAULT_PRICES });
  });
  afterAll(async () => {
    await Promise.allSettled([embedded?.close(), remote?.close()]);
    await server?.dispose();
    if (embeddedDir !== undefined) rmSync(embeddedDir, { recursive: true, force: true });
  });

  it('stores the same rows', async () => {
    const dump = async (store: Store): Promise<{ rows: number; sha: string }> => {
      const text = await new StoreInspector(store).spanRowsText();
      return { rows: text.split('\n').filter(Boolean).length, sha: createHash('sha256').update(text).digest('hex') };
    };
    const [want, got] = await Promise.all([dump(embedded), dump(remote)]);
    expect(got).toEqual(want);
    expect(want.rows).toBe(spans.length);
  });

  it(
    'answers every analytics query the same, from the run facts',
    async () => {
      for (const projectId of projectIds) await expectParity({ projectId, ...window }, projectId);
      const reliability = await viaHttp.reliability({ projectId: projectIds[0]!, ...window });
      expect(reliability.observed.n, 'the dataset has runs to compare').toBeGreaterThan(100);
    },
    SLOW_TEST_MS,
  );

  it(
    'answers every analytics query the same, recomputed from the spans',
    async () => {
      for (const projectId of projectIds)
        await expectParity({ projectId, ...window, recompute: true }, `${projectId} recomputed`);
    },
    SLOW_TEST_MS,
  );

  it(
    'answers the same with filters bound as parameters (agent, step, tool, model, run ids, attributes)',
    async () => {
      const projectId = projectIds[0]!;
      const run = truth.runs.find((r) => r.projectId === projectId && r.outcome === 'failure')!;
      const span = spans.find((s) => s.projectId === projectId && s.toolName !== '')!;
      const model = spans.find((s) => s.projectId === projectId && s.model !== '')!.model;
      const someRuns = truth.runs
        .filter((r) => r.projectId === projectId)
        .slice(0, 40)
        .map((r) => r.runId);
      await expectParity({ projectId, ...window, agent: run.agent }, 'agent', FILTERED);
      await expectParity({ projectId, ...window, stepName: span.name }, 'step', FILTERED);
      await expectParity({ projectId, ...window, tool: span.toolName }, 'tool', FILTERED);
      await expectParity({ projectId, ...window, model }, 'model', FILTERED);
      await expectParity({ projectId, ...window, runIds: someRuns }, 'run ids', FILTERED);
      await expectParity(
        { projectId, ...window, attributes: { 'no.such.attribute': "it's\n" } },
        'attributes',
        FILTERED,
      );
    },
    SLOW_TEST_MS,
  );

  it('reads a run and a trace the same', async () => {
    for (const r of truth.runs.filter((x) => x.projectId === projectIds[1]).slice(0, 5)) {
      expectNoDifference(
        await remote.runs.getRun(r.projectId, r.runId, DEFAULT_PRICES),
        await embedded.runs.getRun(r.projectId, r.runId, DEFAULT_PRICES),
        `run ${r.runId}`,
      );
      expectNoDifference(
        await remote.runs.getTraceSpans(r.projectId, r.traceId),
        await embedded.runs.getTraceSpans(r.projectId, r.traceId),
        `trace ${r.traceId}`,
      );
    }
  });

  it('writes and reads price overrides the same, and ignores a repeated batch', async () => {
    const projectId = projectIds[0]!;
    const price = {
      model: spans.find((s) => s.projectId === projectId && s.model !== '')!.model,
      inputPerMTok: 1.5,
      cachedInputPerMTok: 0.5,
      outputPerMTok: 6,
      asOf: '2026-01-01',
      source: "test's",
    };
    const withStoredPrices = [new Analytics(embedded), new Analytics(remote)] as const;
    await withStoredPrices[0].setPrice(projectId, price);
    await withStoredPrices[1].setPrice(projectId, price);
    expectNoDifference(
      await withStoredPrices[1].prices(projectId),
      await withStoredPrices[0].prices(projectId),
      'prices',
    );
    expectNoDifference(
      await withStoredPrices[1].cost({ projectId, ...window }),
      await withStoredPrices[0].cost({ projectId, ...window }),
      'cost with an override',
    );

    const again = shuffleForDelivery(spans, 7, { batchSize: [500, 3_000] })[0]!;
    await remote.insertSpans(again, { deduplicationToken: 'batch-0' });
    expect(await new StoreInspector(remote).spanCount()).toBe(spans.length);
  });

  it('catches up the runs ingested since a moment the same way, by the server’s clock', async () => {
    await Promise.all([embedded.runFacts.flush(), remote.runFacts.flush()]);
    const now = await remote.runFacts.storageNowMs();
    expect(Math.abs(now - Date.now())).toBeLessThan(60_000);
    // every run was ingested since then: each is compared by key, and none is stale
    const [viaHttpStale, localStale] = await Promise.all([
      remote.runFacts.catchUp({ ingestedSinceMs: 0 }),
      embedded.runFacts.catchUp({ ingestedSinceMs: 0 }),
    ]);
    expect(viaHttpStale).toBe(0);
    expect(localStale).toBe(0);
    expect(await remote.runFacts.catchUp({ ingestedSinceMs: now + 60_000 })).toBe(0);
  });

  it('opens again on the same server without redoing migrations or facts', async () => {
    const second = await Store.open({ kind: 'remote', url: server.url });
    try {
      expect(await second.runFacts.reconcile()).toBe(0);
      const { applied, versions } = await new StoreInspector(second).migrationsApplied();
      expect(applied, 'each migration applied once').toBe(versions);
      expect(applied).toBeGreaterThanOrEqual(3);
      expect(await second.ping()).toBe(true);
    } finally {
      await second.close();
    }
  });
});
