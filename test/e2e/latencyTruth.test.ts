import { PERCENTILE_LEVELS, type LatencyGroupBy } from '@telltale/semconv';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Analytics, type LatencyGroup, type LatencyPercentiles, type TailAttribution } from '@telltale/analytics';
import {
  DEFAULT_PRICES,
  exactPercentiles,
  generateDataset,
  shuffleForDelivery,
  smallDataset,
  tailAttribution as referenceTail,
} from '@telltale/datasets';
import { Store, type AnalyticsFilter, type SpanRecord } from '@telltale/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SHUFFLED = '-shuffled';

/** Durations of the spans (or runs) each grouping aggregates, by group key (`agent` keys are `service/agent`). */
function referenceGroups(spans: readonly SpanRecord[], groupBy: LatencyGroupBy): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  const add = (key: string, ns: number): void => {
    const list = groups.get(key);
    if (list === undefined) groups.set(key, [ns]);
    else list.push(ns);
  };
  for (const s of spans) {
    const ns = Number(s.endTimeUnixNano - s.startTimeUnixNano);
    const isStep = s.stepKind !== '' && s.stepKind !== 'run';
    switch (groupBy) {
      case 'step':
        if (isStep) add(s.stepName, ns);
        break;
      case 'tool':
        if (s.stepKind === 'tool' && s.toolName !== '') add(s.toolName, ns);
        break;
      case 'model':
        if (s.stepKind === 'llm' && s.model !== '') add(s.model, ns);
        break;
      case 'agent':
        if (s.isRunRoot) add(`${s.serviceName}/${s.name}`, ns);
        break;
      case 'run':
        if (s.isRunRoot) add('', ns);
        break;
    }
  }
  return groups;
}

const keyOf = (g: LatencyGroup, groupBy: LatencyGroupBy): string =>
  groupBy === 'agent' ? `${g.service}/${g.key}` : g.key;

describe('latency against the generator truth', () => {
  const { spans, truth } = generateDataset(smallDataset());
  const projects = [...new Set(truth.runs.map((r) => r.projectId))];
  const filterFor = (projectId: string): AnalyticsFilter => ({
    projectId,
    fromUnixNano: truth.startNs,
    toUnixNano: truth.endNs + 1n,
  });
  const spansOf = (projectId: string): SpanRecord[] => spans.filter((s) => s.projectId === projectId);
  let dir: string;
  let store: Store;
  let analytics: Analytics;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-latency-truth-'));
    store = await Store.open({ kind: 'embedded', dataDir: dir });
    await store.insertSpans(spans);
    // the same spans again under other project ids, delivered out of order: children first, late roots, many batches
    for (const batch of shuffleForDelivery(spans, 99, { batchSize: [500, 3000] })) {
      await store.insertSpans(batch.map((s) => ({ ...s, projectId: s.projectId + SHUFFLED })));
    }
    analytics = new Analytics(store, { pricesFor: () => DEFAULT_PRICES });
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives percentiles equal to the reference exact percentiles for every group', async () => {
    let groupsChecked = 0;
    for (const projectId of projects) {
      for (const groupBy of ['step', 'tool', 'model', 'agent', 'run'] as const) {
        const got = await analytics.latencyPercentiles(filterFor(projectId), { groupBy });
        const expected = referenceGroups(spansOf(projectId), groupBy);
        expect(got.groups.map((g) => keyOf(g, groupBy)).sort(), `${projectId} ${groupBy}`).toEqual(
          [...expected.keys()].sort(),
        );
        for (const g of got.groups) {
          const values = expected.get(keyOf(g, groupBy))!;
          const [p50, p90, p95, p99, p999] = exactPercentiles(values, PERCENTILE_LEVELS);
          expect(
            { count: g.count, maxNs: g.maxNs, percentilesNs: g.percentilesNs, accuracy: g.accuracy },
            `${projectId} ${groupBy} ${g.key}`,
          ).toEqual({
            count: values.length,
            maxNs: Math.max(...values),
            percentilesNs: { p50, p90, p95, p99, p999 },
            accuracy: { method: 'exact' },
          });
          expect(g.meanNs).toBeCloseTo(values.reduce((a, b) => a + b, 0) / values.length, 0);
          groupsChecked++;
        }
      }
    }
    expect(groupsChecked).toBeGreaterThan(40);
  });

  it('gives a series whose buckets hold the reference percentiles of their spans', async () => {
    const projectId = projects[0]!;
    const series = await analytics.latencySeries(filterFor(projectId), {
      groupBy: 'step',
      intervalSeconds: 3600,
      topN: 3,
    });
    const counts = referenceGroups(spansOf(projectId), 'step');
    const top = [...counts]
      .sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1))
      .slice(0, 3)
      .map(([k]) => k);
    expect(series.series.map((s) => s.key)).toEqual(top);
    for (const s of series.series) {
      const byBucket = new Map<number, number[]>();
      for (const span of spansOf(projectId)) {
        if (span.stepName !== s.key || span.stepKind === '' || span.stepKind === 'run') continue;
        const bucket = Math.floor(Number(span.startTimeUnixNano / 1_000_000n) / 3_600_000) * 3_600_000;
        byBucket.set(bucket, [...(byBucket.get(bucket) ?? []), Number(span.endTimeUnixNano - span.startTimeUnixNano)]);
      }
      expect(s.points.map((p) => p.startUnixMs)).toEqual([...byBucket.keys()].sort((a, b) => a - b));
      for (const p of s.points) {
        const [p50, p90, p95, p99, p999] = exactPercentiles(byBucket.get(p.startUnixMs)!, PERCENTILE_LEVELS);
        expect(p.percentilesNs).toEqual({ p50, p90, p95, p99, p999 });
      }
      expect(s.count).toBe(counts.get(s.key)!.length);
    }
  });

  const compareTail = (got: TailAttribution, ref: ReturnType<typeof referenceTail>): void => {
    expect(got.thresholdsNs?.p99).toBe(ref.tailThresholdNs);
    expect([got.tailRuns, got.medianRuns]).toEqual([ref.tailRuns, ref.medianRuns]);
    // the reference puts the root's own time and step-less spans together under ''
    const merged = new Map<string, { tail: number; median: number }>();
    for (const s of got.steps) {
      const e = merged.get(s.stepName) ?? { tail: 0, median: 0 };
      merged.set(s.stepName, { tail: e.tail + s.tailShare, median: e.median + s.medianShare });
    }
    expect([...merged.keys()].sort()).toEqual(ref.shares.map((s) => s.stepName).sort());
    for (const r of ref.shares) {
      expect(merged.get(r.stepName)!.tail, r.stepName).toBeCloseTo(r.tailShare, 12);
      expect(merged.get(r.stepName)!.median, r.stepName).toBeCloseTo(r.medianShare, 12);
    }
    // the reference names its top step even when nothing grows; we name none then
    const top = ref.shares.find((s) => s.isStep);
    expect(got.tailDriver).toBe(
      top !== undefined && top.growth > 0 && ref.tailRuns > 0 && ref.medianRuns > 0 ? top.stepName : null,
    );
  };

  it('finds each agent’s injected tail driver, with the reference shares', async () => {
    const withDriver = truth.agents.filter((a) => a.tailDriver !== null);
    expect(withDriver.length).toBeGreaterThan(0);
    for (const a of truth.agents) {
      const runIds = new Set(
        truth.runs.filter((r) => r.agent === a.agent && r.projectId === a.projectId).map((r) => r.runId),
      );
      const got = await analytics.tailAttribution({ ...filterFor(a.projectId), agent: a.agent });
      compareTail(got, referenceTail(spans.filter((s) => runIds.has(s.runId))));
      if (a.tailDriver !== null) {
        expect(got.tailDriver, a.agent).toBe(a.tailDriver);
        const driver = got.steps.find((s) => s.stepName === a.tailDriver)!;
        expect(driver.delta).toBeGreaterThan(0.1);
      }
    }
  });

  it('matches the reference over a whole project', async () => {
    for (const projectId of projects)
      compareTail(await analytics.tailAttribution(filterFor(projectId)), referenceTail(spansOf(projectId)));
  });

  it('gives identical numbers when the spans arrive out of order', async () => {
    for (const projectId of projects) {
      for (const groupBy of ['step', 'tool', 'model', 'agent', 'run'] as const) {
        const a: LatencyPercentiles = await analytics.latencyPercentiles(filterFor(projectId), { groupBy });
        const b = await analytics.latencyPercentiles(filterFor(projectId + SHUFFLED), { groupBy });
        expect(b).toEqual(a);
      }
      expect(await analytics.tailAttribution(filterFor(projectId + SHUFFLED))).toEqual(
        await analytics.tailAttribution(filterFor(projectId)),
      );
      const s1 = await analytics.latencySeries(filterFor(projectId), { groupBy: 'agent' });
      expect(await analytics.latencySeries(filterFor(projectId + SHUFFLED), { groupBy: 'agent' })).toEqual(s1);
      expect(s1.intervalSeconds).toBe(300);
    }
  });
});
