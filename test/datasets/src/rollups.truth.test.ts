import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PERCENTILE_LEVELS } from '@telltale/semconv';
import { Store, type AnalyticsFilter, type SpanRecord } from '@telltale/store';
import { StoreInspector } from '@telltale/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PRICES } from './defaultPrices.js';
import { generateDataset, type Dataset } from './generateDataset.js';
import { shuffleForDelivery } from './shuffleForDelivery.js';
import { smallDataset } from './smallDataset.js';

/*
 * The rollup-backed step queries (span_rollup_1m, maintained by a view at
 * insert time) against the same queries over the raw spans (`recompute`),
 * over a truth dataset delivered out of order with late roots, a retried
 * insert and re-sent spans: counts, max and token sums equal, means and
 * costs equal to rounding, DDSketch percentiles within the sketch's stated
 * accuracy (1% of a value within one rank of nearest rank, checked against
 * the sorted true durations) — and equal to the raw path's sketch.
 */
const END = 1_900_000_000_000_000_000n;
const SECOND = 1_000_000_000n;
const GROUPINGS = ['step', 'tool', 'model'] as const;

/** The durations a grouping holds, per key, from the generated spans (the truth). */
function trueDurations(spans: readonly SpanRecord[], groupBy: (typeof GROUPINGS)[number]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const s of spans) {
    if (s.stepKind === '' || s.stepKind === 'run') continue;
    const key =
      groupBy === 'step'
        ? s.stepName
        : groupBy === 'tool'
          ? s.stepKind === 'tool'
            ? s.toolName
            : ''
          : s.stepKind === 'llm'
            ? s.model
            : '';
    if (groupBy !== 'step' && key === '') continue;
    const list = out.get(key) ?? [];
    list.push(Number(s.endTimeUnixNano - s.startTimeUnixNano));
    out.set(key, list);
  }
  for (const list of out.values()) list.sort((a, b) => a - b);
  return out;
}

const relClose = (a: number, b: number, tol: number): boolean => Math.abs(a - b) <= tol * Math.max(1, Math.abs(b));

describe('step rollups against the raw spans', () => {
  let dir: string;
  let store: Store;
  let inspector: StoreInspector;
  let data: Dataset;
  let project: string;
  let window: AnalyticsFilter;
  let windowSpans: SpanRecord[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-rollup-truth-'));
    store = await Store.open({ kind: 'embedded', dataDir: dir });
    inspector = new StoreInspector(store);
    data = generateDataset(smallDataset({ runs: 1_500, endNs: END }));
    const counts = new Map<string, number>();
    for (const s of data.spans) counts.set(s.projectId, (counts.get(s.projectId) ?? 0) + 1);
    project = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
    // delivery order: shuffled, 30% of roots late by 1–3 batches, many inserts
    const batches = shuffleForDelivery(data.spans, 11, { batchSize: [400, 2_500] });
    for (const [i, batch] of batches.entries()) {
      await store.insertSpans(batch, { deduplicationToken: `truth-${i}` });
      // a retried insert (same token, same block) is dropped by spans and by the view's target alike
      if (i % 4 === 0) await store.insertSpans(batch, { deduplicationToken: `truth-${i}` });
    }
    // edges not on minute boundaries: the partial minutes come from the spans
    window = {
      projectId: project,
      fromUnixNano: data.truth.startNs + 17n * SECOND + 300_000_000n,
      toUnixNano: data.truth.endNs - 23n * SECOND - 100_000_000n,
    };
    windowSpans = data.spans.filter(
      (s) =>
        s.projectId === project &&
        s.startTimeUnixNano >= window.fromUnixNano &&
        s.startTimeUnixNano < window.toUnixNano,
    );
  }, 240_000);

  afterAll(async () => {
    await store?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('a retried insert is not counted twice, in the spans or in the rollup', async () => {
    expect(await inspector.spanCount()).toBe(data.spans.length);
    const [row] = await inspector.baselineRows<{ n: string }>('SELECT sum(spans) AS n FROM span_rollup_1m');
    const steps = data.spans.filter((s) => s.stepKind !== '' && s.stepKind !== 'run').length;
    expect(Number(row?.n)).toBe(steps);
  });

  for (const groupBy of GROUPINGS) {
    it(`latency by ${groupBy}: rollup = raw (counts, max, sketch) and within 1% of the true ranks`, async () => {
      const rolled = await store.metrics.latencyPercentiles(window, DEFAULT_PRICES, { groupBy, exactLimit: 0 });
      const raw = await store.metrics.latencyPercentiles({ ...window, recompute: true }, DEFAULT_PRICES, {
        groupBy,
        exactLimit: 0,
      });
      expect(rolled.length).toBeGreaterThan(0);
      expect(rolled.map((r) => [r.key, r.count, r.maxNs, r.digest])).toEqual(
        raw.map((r) => [r.key, r.count, r.maxNs, r.digest]),
      );
      const truth = trueDurations(windowSpans, groupBy);
      for (const [i, r] of rolled.entries()) {
        const values = truth.get(r.key) ?? [];
        expect(r.count, r.key).toBe(values.length);
        expect(relClose(r.meanNs, raw[i]!.meanNs, 1e-9), r.key).toBe(true);
        for (const [j, p] of PERCENTILE_LEVELS.entries()) {
          const got = r.quantilesNs[j]!;
          // DDSketch bins add on merge: the rollup's answer is the raw sketch's
          expect(relClose(got, raw[i]!.quantilesNs[j]!, 1e-9), `${r.key} p${p}`).toBe(true);
          // stated accuracy: within 1% of a value within one rank of rank ⌊p·(n−1)⌋ + 1
          const k = Math.floor(p * (values.length - 1));
          const near = [values[k - 1], values[k], values[k + 1]].filter((v): v is number => v !== undefined);
          expect(
            near.some((v) => Math.abs(got - v) <= 0.01 * v + 1),
            `${r.key} p${p}: ${got} vs ${near.join(',')}`,
          ).toBe(true);
        }
      }
    });
  }

  it('latency series by step (5-minute buckets): rollup = raw', async () => {
    const opts = { groupBy: 'step' as const, exactLimit: 0, intervalSeconds: 300, topN: 5 };
    const rolled = await store.metrics.latencySeries(window, DEFAULT_PRICES, opts);
    const raw = await store.metrics.latencySeries({ ...window, recompute: true }, DEFAULT_PRICES, opts);
    expect(rolled.length).toBeGreaterThan(5);
    expect(rolled.map((r) => [r.key, r.bucketStartMs, r.count, r.maxNs])).toEqual(
      raw.map((r) => [r.key, r.bucketStartMs, r.count, r.maxNs]),
    );
    for (const [i, r] of rolled.entries())
      for (const [j, q] of r.quantilesNs.entries()) expect(relClose(q, raw[i]!.quantilesNs[j]!, 1e-9)).toBe(true);
  });

  it('with the default exact limit the answer stays exact (raw spans serve groups under it)', async () => {
    const rows = await store.metrics.latencyPercentiles(window, DEFAULT_PRICES, { groupBy: 'step' });
    const truth = trueDurations(windowSpans, 'step');
    for (const r of rows) {
      expect(r.digest).toBe(false);
      const values = truth.get(r.key) ?? [];
      expect(r.quantilesNs).toEqual(PERCENTILE_LEVELS.map((p) => values[Math.ceil(p * values.length) - 1]));
    }
  });

  for (const groupBy of GROUPINGS) {
    it(`cost breakdown by ${groupBy}: rollup = raw`, async () => {
      for (const filter of [window, { ...window, model: windowSpans.find((s) => s.model !== '')!.model }]) {
        const rolled = await store.metrics.costGroups(filter, DEFAULT_PRICES, groupBy);
        const raw = await store.metrics.costGroups({ ...filter, recompute: true }, DEFAULT_PRICES, groupBy);
        expect(rolled.length).toBeGreaterThan(0);
        const exactPart = (g: (typeof rolled)[number]): unknown[] => [
          g.key,
          g.calls,
          g.billedCalls,
          g.inputTokens,
          g.cachedInputTokens,
          g.outputTokens,
          g.unpricedSpans,
        ];
        expect(rolled.map(exactPart).sort()).toEqual(raw.map(exactPart).sort());
        const rawCost = new Map(raw.map((g) => [g.key, g.costUsd]));
        for (const g of rolled) expect(relClose(g.costUsd, rawCost.get(g.key)!, 1e-9), g.key).toBe(true);
      }
    });
  }

  it('re-sent spans (another insert): counted like the unmerged spans; merging the spans drops them, the rollup keeps them', async () => {
    const resent = windowSpans.filter((s) => s.stepKind === 'tool').slice(0, 40);
    const dupProject = `dup-${project}`;
    const moved = windowSpans.map((s) => ({ ...s, projectId: dupProject }));
    await store.insertSpans(moved);
    await store.insertSpans(resent.map((s) => ({ ...s, projectId: dupProject })));
    const filter = { ...window, projectId: dupProject };
    const total = async (f: AnalyticsFilter): Promise<number> =>
      (await store.metrics.costGroups(f, DEFAULT_PRICES, 'tool')).reduce((a, g) => a + g.calls, 0);
    // the breakdown counts every span whose usage counts (step kinds other than '', run, handoff)
    const tools = moved.filter((s) => !['', 'run', 'handoff'].includes(s.stepKind)).length;
    expect(await total(filter)).toBe(tools + resent.length);
    expect(await total({ ...filter, recompute: true })).toBe(tools + resent.length);
    await inspector.mergeParts(['spans']);
    expect(await total({ ...filter, recompute: true })).toBe(tools);
    expect(await total(filter)).toBe(tools + resent.length);
  });

  it('reads the rollup: with the spans gone, whole minutes still answer from it', async () => {
    const minute = 60n * SECOND;
    const aligned = {
      ...window,
      fromUnixNano: (window.fromUnixNano / minute + 1n) * minute,
      toUnixNano: (window.toUnixNano / minute) * minute,
    };
    const before = await store.metrics.costGroups(aligned, DEFAULT_PRICES, 'step');
    const latency = { groupBy: 'tool' as const, exactLimit: 0 };
    const latencyBefore = await store.metrics.latencyPercentiles(aligned, DEFAULT_PRICES, latency);
    expect(latencyBefore.length).toBeGreaterThan(0);
    await inspector.truncate(['spans']);
    expect(await store.metrics.latencyPercentiles(aligned, DEFAULT_PRICES, latency)).toEqual(latencyBefore);
    expect(await store.metrics.costGroups({ ...aligned, recompute: true }, DEFAULT_PRICES, 'step')).toEqual([]);
    expect(await store.metrics.costGroups(aligned, DEFAULT_PRICES, 'step')).toEqual(before);
  });
});
