import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../Store.js';
import type { SpanRecord } from '../spans/SpanRecord.js';
import { shuffled, spanAt } from '../testing/spanAt.js';
import { EMPTY_PRICE_TABLE, type AnalyticsFilter } from './AnalyticsFilter.js';
import { type LatencyGroupRow } from './latencyQueries.js';

const MS = 1_000_000;
const HOUR_MS = 3_600_000;
// Whole hours, so buckets of 3600 s start at T0 exactly.
const T0_MS = Math.floor(Date.now() / HOUR_MS) * HOUR_MS - 5 * HOUR_MS;
const T0 = BigInt(T0_MS) * 1_000_000n;

/**
 * 10 runs of agent `alpha` (root durations 100..1000 ms) with 10 `search`
 * tool calls each of 1..100 ms (across runs: every value 1..100 once), one
 * `plan` step, and one `chat` llm call; 3 runs of agent `beta` (svc2) of
 * 50 ms; one incomplete run (no root) that must not count as a run.
 * Runs start an hour apart, so hour buckets hold one run each.
 */
function dataset(projectId: string): SpanRecord[] {
  const spans: SpanRecord[] = [];
  const at = (hour: number): bigint => T0 + BigInt(hour) * BigInt(HOUR_MS) * 1_000_000n;
  for (let r = 0; r < 10; r++) {
    const run = `alpha-${r}`;
    const origin = at(r % 5);
    const p = { projectId };
    const dur = 100 * (r + 1);
    spans.push(spanAt(origin, run, 'root', '', 'run', 'alpha', 0, dur, p));
    spans.push(spanAt(origin, run, 'plan', 'root', 'plan', 'plan', 0, 10 * (r + 1), p));
    for (let i = 0; i < 10; i++) {
      const ms = r * 10 + i + 1; // 1..100 across the runs
      spans.push(spanAt(origin, run, `s${i}`, 'root', 'tool', 'search', 0, ms, { ...p, toolName: 'search' }));
    }
    spans.push(
      spanAt(origin, run, 'chat', 'root', 'llm', 'chat', 0, 7 + r, { ...p, model: r < 5 ? 'gpt-4o' : 'claude' }),
    );
  }
  for (let r = 0; r < 3; r++) {
    const run = `beta-${r}`;
    const origin = at(r);
    spans.push(spanAt(origin, run, 'root', '', 'run', 'beta', 0, 50, { projectId, serviceName: 'svc2' }));
    spans.push(
      spanAt(origin, run, 'x', 'root', 'tool', 'search', 0, 1000, {
        projectId,
        serviceName: 'svc2',
        toolName: 'search',
      }),
    );
  }
  spans.push(spanAt(at(1), 'lost', 'x', 'gone', 'act', 'orphan', 0, 99_999, { projectId }));
  return spans;
}

/** Nearest rank, as @telltale/datasets' exactPercentile: 1-based rank ⌈p·n⌉ of the sorted values. */
const exact = (sorted: readonly number[], p: number): number => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
const LEVELS = [0.5, 0.9, 0.95, 0.99, 0.999];
const ms = (values: number[]): number[] => values.map((v) => v * MS);

describe('latency queries', () => {
  let dir: string;
  let store: Store;
  const filter: AnalyticsFilter = {
    projectId: 'p1',
    fromUnixNano: T0 - 1n,
    toUnixNano: BigInt(Date.now()) * 1_000_000n,
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-lat-'));
    store = await Store.open({ kind: 'embedded', dataDir: dir });
    await store.insertSpans(dataset('p1'));
    // The same spans for p2, shuffled, in three batches (three parts).
    const mixed = shuffled(dataset('p2'), 7);
    const third = Math.ceil(mixed.length / 3);
    for (let i = 0; i < 3; i++) await store.insertSpans(mixed.slice(i * third, (i + 1) * third));
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const byKey = (rows: LatencyGroupRow[]): Record<string, LatencyGroupRow> =>
    Object.fromEntries(rows.map((r) => [r.key, r]));

  it('gives exact nearest-rank percentiles per step name', async () => {
    const rows = byKey(await store.metrics.latencyPercentiles(filter, EMPTY_PRICE_TABLE, { groupBy: 'step' }));
    // search: 1..100 ms from alpha plus three 1000 ms calls from beta
    const search = [...Array.from({ length: 100 }, (_, i) => i + 1), 1000, 1000, 1000];
    expect(rows.search).toMatchObject({
      key: 'search',
      service: '',
      count: 103,
      maxNs: 1000 * MS,
      digest: false,
      quantilesNs: ms(LEVELS.map((p) => exact(search, p))),
    });
    expect(rows.search!.meanNs).toBeCloseTo(((5050 + 3000) / 103) * MS, 3);
    expect(rows.search!.quantilesNs).toEqual(ms([52, 93, 98, 1000, 1000]));
    // plan: 10, 20, …, 100 ms — p50 is the 5th value (quantileExact at 0.5 alone would say the 6th)
    expect(rows.plan!.quantilesNs).toEqual(ms([50, 90, 100, 100, 100]));
    expect(rows.chat!.quantilesNs).toEqual(ms([11, 15, 16, 16, 16]));
    // the orphan act step of the incomplete run is a step too
    expect(rows.orphan!.count).toBe(1);
    expect(Object.keys(rows).sort()).toEqual(['chat', 'orphan', 'plan', 'search']);
  });

  it('groups tool calls by tool and llm calls by model', async () => {
    const tools = await store.metrics.latencyPercentiles(filter, EMPTY_PRICE_TABLE, { groupBy: 'tool' });
    expect(tools.map((t) => [t.key, t.count])).toEqual([['search', 103]]);
    const models = byKey(await store.metrics.latencyPercentiles(filter, EMPTY_PRICE_TABLE, { groupBy: 'model' }));
    expect(models['gpt-4o']!.quantilesNs).toEqual(ms([9, 11, 11, 11, 11]));
    expect(models.claude!.quantilesNs).toEqual(ms([14, 16, 16, 16, 16]));
    expect(models.claude!.meanNs).toBe(14 * MS);
  });

  it('gives root durations of completed runs per agent and overall', async () => {
    const agents = await store.metrics.latencyPercentiles(filter, EMPTY_PRICE_TABLE, { groupBy: 'agent' });
    expect(agents.map((a) => [a.key, a.service, a.count, a.maxNs])).toEqual([
      ['alpha', 'svc', 10, 1000 * MS],
      ['beta', 'svc2', 3, 50 * MS],
    ]);
    expect(agents[0]!.quantilesNs).toEqual(ms([500, 900, 1000, 1000, 1000]));
    const runs = await store.metrics.latencyPercentiles(filter, EMPTY_PRICE_TABLE, { groupBy: 'run' });
    const all = [50, 50, 50, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000];
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      key: '',
      service: '',
      count: 13,
      maxNs: 1000 * MS,
      digest: false,
      quantilesNs: ms(LEVELS.map((p) => exact(all, p))),
    });
    expect(runs[0]!.meanNs).toBeCloseTo((5650 / 13) * MS, 3);
  });

  it('applies run filters to span groupings through the root', async () => {
    const rows = byKey(
      await store.metrics.latencyPercentiles({ ...filter, agent: 'beta' }, EMPTY_PRICE_TABLE, { groupBy: 'step' }),
    );
    expect(Object.keys(rows)).toEqual(['search']);
    expect(rows.search!.count).toBe(3);
    const svc = await store.metrics.latencyPercentiles({ ...filter, service: 'svc2' }, EMPTY_PRICE_TABLE, {
      groupBy: 'agent',
    });
    expect(svc.map((a) => a.key)).toEqual(['beta']);
    // span filters keep the runs that contain a matching span
    const withClaude = await store.metrics.latencyPercentiles({ ...filter, model: 'claude' }, EMPTY_PRICE_TABLE, {
      groupBy: 'run',
    });
    expect(withClaude[0]!.quantilesNs).toEqual(ms([800, 1000, 1000, 1000, 1000]));
  });

  it('reads agent and run latency from the run facts with the numbers of the span path', async () => {
    for (const groupBy of ['agent', 'run'] as const) {
      const facts = await store.metrics.latencyPercentiles(filter, EMPTY_PRICE_TABLE, { groupBy });
      const spans = await store.metrics.latencyPercentiles({ ...filter, recompute: true }, EMPTY_PRICE_TABLE, {
        groupBy,
      });
      expect(facts).toEqual(spans);
      const series = { groupBy, intervalSeconds: 3600 };
      const factSeries = await store.metrics.latencySeries(filter, EMPTY_PRICE_TABLE, series);
      expect(factSeries).toEqual(
        await store.metrics.latencySeries({ ...filter, recompute: true }, EMPTY_PRICE_TABLE, series),
      );
      expect(factSeries.length).toBeGreaterThan(0);
    }
  });

  it('switches to the digest above the exact limit, within its relative error', async () => {
    const rows = byKey(
      await store.metrics.latencyPercentiles(filter, EMPTY_PRICE_TABLE, { groupBy: 'step', exactLimit: 10 }),
    );
    expect(rows.plan!.digest).toBe(false);
    expect(rows.plan!.quantilesNs).toEqual(ms([50, 90, 100, 100, 100]));
    const search = rows.search!;
    expect(search.digest).toBe(true);
    expect(search.count).toBe(103);
    // DDSketch (1%) answers for 0-based index ⌊p·(n−1)⌋ (nearest rank ± 1 here)
    const sorted = [...Array.from({ length: 100 }, (_, i) => i + 1), 1000, 1000, 1000];
    LEVELS.forEach((p, i) => {
      const truth = sorted[Math.floor(p * (sorted.length - 1))]! * MS;
      expect(Math.abs(search.quantilesNs[i]! - truth) / truth).toBeLessThanOrEqual(0.01);
    });
  });

  it('gives a series per group and hour bucket, limited to the largest groups', async () => {
    const series = await store.metrics.latencySeries(filter, EMPTY_PRICE_TABLE, {
      groupBy: 'agent',
      intervalSeconds: 3600,
    });
    const alpha = series.filter((s) => s.key === 'alpha');
    // alpha runs r and r + 5 share hour r % 5: durations 100(r+1) and 100(r+6)
    expect(alpha.map((s) => s.bucketStartMs)).toEqual([0, 1, 2, 3, 4].map((h) => T0_MS + h * HOUR_MS));
    expect(alpha.map((s) => s.quantilesNs)).toEqual(
      [0, 1, 2, 3, 4].map((h) => ms([100 * (h + 1), 100 * (h + 6), 100 * (h + 6), 100 * (h + 6), 100 * (h + 6)])),
    );
    expect(alpha.map((s) => s.count)).toEqual([2, 2, 2, 2, 2]);
    expect(series.filter((s) => s.key === 'beta').map((s) => s.count)).toEqual([1, 1, 1]);
    const top1 = await store.metrics.latencySeries(filter, EMPTY_PRICE_TABLE, {
      groupBy: 'step',
      intervalSeconds: 86_400,
      topN: 1,
    });
    expect(new Set(top1.map((s) => s.key))).toEqual(new Set(['search']));
    expect(top1.reduce((n, s) => n + s.count, 0)).toBe(103);
  });

  it('gives identical numbers when the spans arrive shuffled in several batches', async () => {
    for (const groupBy of ['step', 'tool', 'model', 'agent', 'run'] as const) {
      const inOrder = await store.metrics.latencyPercentiles(filter, EMPTY_PRICE_TABLE, { groupBy });
      const mixed = await store.metrics.latencyPercentiles({ ...filter, projectId: 'p2' }, EMPTY_PRICE_TABLE, {
        groupBy,
      });
      expect(mixed).toEqual(inOrder);
      expect(inOrder.length).toBeGreaterThan(0);
    }
    const a = await store.metrics.latencySeries(filter, EMPTY_PRICE_TABLE, { groupBy: 'step', intervalSeconds: 3600 });
    const b = await store.metrics.latencySeries({ ...filter, projectId: 'p2' }, EMPTY_PRICE_TABLE, {
      groupBy: 'step',
      intervalSeconds: 3600,
    });
    expect(b).toEqual(a);
  });

  it('rejects malformed options', async () => {
    await expect(
      store.metrics.latencySeries(filter, EMPTY_PRICE_TABLE, { groupBy: 'run', intervalSeconds: 0 }),
    ).rejects.toThrow(expect.objectContaining({ code: 'BAD_REQUEST' }));
    await expect(
      store.metrics.latencyPercentiles(filter, EMPTY_PRICE_TABLE, { groupBy: 'run', exactLimit: -1 }),
    ).rejects.toThrow(expect.objectContaining({ code: 'BAD_REQUEST' }));
  });
});
