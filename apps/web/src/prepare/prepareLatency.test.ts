import { describe, expect, it } from 'vitest';
import { latencyPercentilesSchema, latencySeriesSchema, tailAttributionSchema } from '@telltale/api-contract';
import { prepareLatencyLines, preparePercentileTable, prepareRunDurationMarks, prepareTail } from './prepareLatency';
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
    expect(preparePercentileTable(groups).map((r) => [r.key, r.p99])).toEqual([
      ['(none)', '2 s'],
      ['fast', '2 µs'],
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
      ['web.fetch', '+50%', true],
      ['(run overhead)', '+5%', false],
      ['plan', '−20%', false],
    ]);
    expect(view.sentence).toBe(
      'web.fetch takes 60% of the time in runs at or above P99 (53 s) against 10% in median runs.',
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
