import { describe, expect, it } from 'vitest';
import { latencyPercentilesSchema, latencySeriesSchema, tailAttributionSchema } from '@telltale/api-contract';
import {
  prepareLatencyLines,
  preparePercentileTable,
  prepareRunDurationMarks,
  prepareSlowestLines,
  prepareTail,
} from './prepareLatency';
import { prepareLatencyOptions } from './prepareLatencyOptions';

const pct = (p50: number, p99: number) => ({ p50, p90: p99 * 0.8, p95: p99 * 0.9, p99, p999: p99 * 1.5 });

describe('prepareLatencyLines', () => {
  it('puts each group on its own line in ms, one row per bucket, gaps where a group has no spans', () => {
    const series = latencySeriesSchema.parse({
      groupBy: 'step',
      intervalSeconds: 300,
      series: [
        {
          key: 'retrieve',
          service: '',
          count: 5,
          points: [
            { startUnixMs: 1000, count: 3, percentilesNs: pct(1e6, 8e6) },
            { startUnixMs: 2000, count: 2, percentilesNs: pct(2e6, 9e6) },
          ],
        },
        { key: 'plan', service: '', count: 1, points: [{ startUnixMs: 2000, count: 1, percentilesNs: pct(5e5, 5e5) }] },
      ],
    });
    const { rows, lines } = prepareLatencyLines(series, 'p99', (ms) => `t${ms}`);
    expect(lines.map((l) => [l.dataKey, l.label])).toEqual([
      ['s0', 'retrieve'],
      ['s1', 'plan'],
    ]);
    expect(rows).toEqual([
      { t: 1000, label: 't1000', s0: 8, s1: null },
      { t: 2000, label: 't2000', s0: 9, s1: 0.5 },
    ]);
    expect(prepareLatencyLines(series, 'p50', String).rows[0]?.s0).toBe(1);
  });
});

describe('prepareSlowestLines', () => {
  const group = (key: string, count: number, p99: number) => ({
    key,
    service: '',
    count,
    meanNs: 1,
    maxNs: p99,
    percentilesNs: pct(p99 / 10, p99),
  });
  const line = (key: string, count: number) => ({
    key,
    service: '',
    count,
    points: [{ startUnixMs: 1000, count, percentilesNs: pct(1e6, 1e6) }],
  });
  // the busiest first, as the series route answers; synthesize is the slowest over the window
  const series = latencySeriesSchema.parse({
    groupBy: 'step',
    intervalSeconds: 300,
    series: [line('web_search', 441), line('plan', 240), line('reason', 177), line('synthesize', 78)],
  });
  const percentiles = latencyPercentilesSchema.parse({
    groupBy: 'step',
    groups: [
      group('web_search', 441, 1.9e9),
      group('plan', 240, 6.7e9),
      group('reason', 177, 14.7e9),
      group('synthesize', 78, 29.6e9),
    ],
  });

  it('draws the groups slowest at the level over the window, not the busiest', () => {
    const view = prepareSlowestLines(series, percentiles, 'p99', String, 2);
    expect(view.lines.map((l) => l.label)).toEqual(['synthesize', 'reason']);
    expect(view.title).toBe('P99 duration over time, the 2 slowest of 4 steps');
    const p50 = prepareSlowestLines(series, percentiles, 'p50', String, 2);
    expect(p50.title).toBe('P50 duration over time, the 2 slowest of 4 steps');
  });

  it('says "by step" when it draws every group, and when it picked among the busiest only', () => {
    expect(prepareSlowestLines(series, percentiles, 'p99', String).title).toBe('P99 duration over time, by step');
    const more = latencyPercentilesSchema.parse({
      groupBy: 'step',
      groups: [...percentiles.groups, group('rare', 1, 60e9)],
    });
    expect(prepareSlowestLines(series, more, 'p99', String, 2).title).toBe(
      'P99 duration over time, the 2 slowest of the 4 busiest steps',
    );
  });
});

describe('run duration marks and the percentile table', () => {
  const runs = latencyPercentilesSchema.parse({
    groupBy: 'run',
    groups: [{ key: '', service: '', count: 300, meanNs: 4e9, maxNs: 62e9, percentilesNs: pct(5e9, 53e9) }],
  });

  it('marks P50…P99.9 and max of whole runs, in ns and ms', () => {
    const marks = prepareRunDurationMarks(runs);
    expect(marks.map((m) => [m.level, m.ms, m.valueLabel])).toEqual([
      ['p50', 5000, '5 s'],
      ['p90', 42400, '42.4 s'],
      ['p95', 47700, '47.7 s'],
      ['p99', 53000, '53 s'],
      ['p999', 79500, '1m 20s'],
      ['max', 62000, '1m 02s'],
    ]);
    expect(prepareRunDurationMarks(latencyPercentilesSchema.parse({ groupBy: 'run', groups: [] }))).toEqual([]);
  });

  it('lists groups slowest P99 first', () => {
    const groups = latencyPercentilesSchema.parse({
      groupBy: 'tool',
      groups: [
        { key: 'fast', service: '', count: 10, meanNs: 1, maxNs: 2, percentilesNs: pct(1e3, 2e3) },
        { key: '', service: '', count: 3, meanNs: 1, maxNs: 2, percentilesNs: pct(1e3, 2e9) },
      ],
    });
    expect(preparePercentileTable(groups).map((r) => [r.key, r.p90, r.p99])).toEqual([
      ['(none)', '1.6 s', '2 s'],
      ['fast', '1.6 µs', '2 µs'],
    ]);
  });
});

describe('prepareTail', () => {
  const tail = tailAttributionSchema.parse({
    completedRuns: 300,
    tailRuns: 3,
    medianRuns: 30,
    thresholdsNs: { p99: 53e9, p50: 5e9 },
    steps: [
      { stepName: 'plan', kind: 'step', tailShare: 0.1, medianShare: 0.3, delta: -0.2 },
      { stepName: 'web.fetch', kind: 'step', tailShare: 0.6, medianShare: 0.1, delta: 0.5 },
      { stepName: '', kind: 'run', tailShare: 0.1, medianShare: 0.05, delta: 0.05 },
    ],
    tailDriver: 'web.fetch',
  });

  it('orders steps by growth, marks the driver and says it in a sentence', () => {
    const view = prepareTail(tail);
    expect(view.rows.map((r) => [r.label, r.deltaLabel, r.isDriver])).toEqual([
      ['web.fetch', '+50.0 pts', true],
      ['(run overhead)', '+5.0 pts', false],
      ['plan', '−20.0 pts', false],
    ]);
    expect(view.sentence).toBe(
      'web.fetch takes 60% of the time in runs at or above P99 (53 s) against 10% in median runs.',
    );
    expect(view.basis).toBe(
      'All 3 steps by growth, from the 3 slowest runs (at or above P99) against 30 runs around the median.',
    );
  });

  it('says how many steps it leaves out and how few runs it rests on', () => {
    expect(prepareTail({ ...tail, tailRuns: 1 }, 2).basis).toBe(
      'Top 2 of 3 steps by growth, from the slowest run (at or above P99) against 30 runs around the median.',
    );
  });

  it('says so when nothing drives the tail', () => {
    expect(prepareTail({ ...tail, tailDriver: null }).sentence).toBe(
      'No step grows its share of run time in the slowest runs.',
    );
    expect(prepareTail(tail, 1).rows).toHaveLength(1);
  });
});

describe('prepareLatencyOptions', () => {
  it('reads groupBy and level with defaults', () => {
    expect(prepareLatencyOptions(new URLSearchParams('groupBy=tool&level=p95'))).toEqual({
      groupBy: 'tool',
      level: 'p95',
    });
    expect(prepareLatencyOptions(new URLSearchParams('groupBy=run&level=p7'))).toEqual({
      groupBy: 'step',
      level: 'p99',
    });
  });
});
