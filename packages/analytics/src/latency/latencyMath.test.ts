import type { StoreRows } from '@telltale/store';
import { describe, expect, it } from 'vitest';
import { latencyPercentiles } from './latencyPercentiles.js';
import { autoInterval, isLatencyInterval, latencySeries } from './latencySeries.js';
import { tailAttribution } from './tailAttribution.js';

const S = 1_000_000_000n;
const row = (key: string, count: number, digest = false): StoreRows.LatencyGroupRow => ({
  key,
  service: '',
  count,
  meanNs: 5,
  maxNs: 9,
  digest,
  quantilesNs: [1, 2, 3, 4, 5],
});

describe('latency percentiles', () => {
  it('names the percentiles and states the method', () => {
    const r = latencyPercentiles([row('a', 10), row('b', 2_000_000, true)], 'step');
    expect(r.levels).toEqual([0.5, 0.9, 0.95, 0.99, 0.999]);
    expect(r.groups[0]).toEqual({
      key: 'a',
      service: '',
      count: 10,
      meanNs: 5,
      maxNs: 9,
      percentilesNs: { p50: 1, p90: 2, p95: 3, p99: 4, p999: 5 },
      accuracy: { method: 'exact' },
    });
    expect(r.groups[1]!.accuracy).toEqual({ method: 'ddsketch', relativeError: 0.01 });
  });
});

describe('latency series', () => {
  it('picks the smallest allowed interval with at most 200 buckets', () => {
    expect(autoInterval(3600n * S)).toBe(60);
    expect(autoInterval(200n * 60n * S)).toBe(60);
    expect(autoInterval(200n * 60n * S + 1n)).toBe(300);
    expect(autoInterval(24n * 3600n * S)).toBe(900);
    expect(autoInterval(7n * 86_400n * S)).toBe(3600);
    expect(autoInterval(30n * 86_400n * S)).toBe(21_600);
    expect(autoInterval(365n * 86_400n * S)).toBe(86_400);
    expect(isLatencyInterval(900)).toBe(true);
    expect(isLatencyInterval(901)).toBe(false);
  });

  it('groups rows into time-ordered series, largest first', () => {
    const rows: StoreRows.LatencySeriesRow[] = [
      { ...row('small', 1), bucketStartMs: 60_000 },
      { ...row('big', 3), bucketStartMs: 120_000 },
      { ...row('big', 2, true), bucketStartMs: 60_000 },
    ];
    const s = latencySeries(rows, 'tool', 60);
    expect(s.series.map((g) => [g.key, g.count, g.points.map((p) => p.startUnixMs)])).toEqual([
      ['big', 5, [60_000, 120_000]],
      ['small', 1, [60_000]],
    ]);
    expect(s.series[0]!.points[0]!.accuracy.method).toBe('ddsketch');
    expect(s.intervalSeconds).toBe(60);
  });
});

describe('tail attribution', () => {
  const base: StoreRows.TailAttributionRows = {
    completedRuns: 200,
    p99Ns: 400,
    p45Ns: 95,
    p50Ns: 100,
    p55Ns: 105,
    tailRuns: 2,
    medianRuns: 20,
    tailRunNs: 800,
    medianRunNs: 2000,
    steps: [
      { stepName: 'plan', kind: 'step', tailSelfNs: 80, medianSelfNs: 400 },
      { stepName: 'search', kind: 'step', tailSelfNs: 560, medianSelfNs: 600 },
      { stepName: 'answer', kind: 'step', tailSelfNs: 120, medianSelfNs: 900 },
      { stepName: '', kind: 'run', tailSelfNs: 40, medianSelfNs: 100 },
    ],
  };

  it('divides self time by the group’s run time and names the step that grows most', () => {
    const t = tailAttribution(base);
    expect(t.steps.map((s) => [s.stepName, s.tailShare, s.medianShare])).toEqual([
      ['search', 0.7, 0.3],
      ['', 0.05, 0.05],
      ['plan', 0.1, 0.2],
      ['answer', 0.15, 0.45],
    ]);
    expect(t.steps[0]!.delta).toBeCloseTo(0.4, 12);
    expect(t.tailDriver).toBe('search');
    expect(t.thresholdsNs).toEqual({ p99: 400, p50: 100, p45: 95, p55: 105 });
    expect(t).toMatchObject({
      tailLevel: 0.99,
      medianBand: [0.45, 0.55],
      tailRuns: 2,
      medianRuns: 20,
      completedRuns: 200,
    });
  });

  it('never names a pseudo-step, and names none when nothing grows or a group is empty', () => {
    const rootGrows = tailAttribution({
      ...base,
      steps: [
        { stepName: '', kind: 'other', tailSelfNs: 800, medianSelfNs: 0 },
        { stepName: 'plan', kind: 'step', tailSelfNs: 0, medianSelfNs: 2000 },
      ],
    });
    expect(rootGrows.steps[0]!.kind).toBe('other');
    expect(rootGrows.tailDriver).toBeNull();
    expect(tailAttribution({ ...base, medianRuns: 0, medianRunNs: 0 }).tailDriver).toBeNull();
    const none = tailAttribution({
      ...base,
      completedRuns: 0,
      tailRuns: 0,
      medianRuns: 0,
      tailRunNs: 0,
      medianRunNs: 0,
      steps: [],
    });
    expect(none).toMatchObject({ thresholdsNs: null, steps: [], tailDriver: null });
  });
});
