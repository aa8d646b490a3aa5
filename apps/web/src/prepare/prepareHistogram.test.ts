import { describe, expect, it } from 'vitest';
import { runHistogramSchema } from '@telltale/api-contract';
import { prepareHistogram } from './prepareHistogram';

const ms = (ns: number): number => ns / 1e6;
const label = (ns: number): string => `${ns / 1e9}s`;

describe('prepareHistogram', () => {
  it('puts each bucket at its middle in the plotted unit, with marks on the same axis', () => {
    const h = runHistogramSchema.parse({
      metric: 'duration',
      runs: 5,
      min: 1e9,
      max: 3e9,
      buckets: [
        { from: 1e9, to: 2e9, runs: 4 },
        { from: 2e9, to: 3e9, runs: 1 },
      ],
    });
    const view = prepareHistogram(
      h,
      [
        { key: 'p50', label: 'P50', value: 1.5e9 },
        { key: 'p99', label: 'P99', value: 3e9 },
      ],
      ms,
      label,
    );
    expect(view.bars).toEqual([
      { x: 1500, from: 1000, to: 2000, runs: 4, range: '1s – 2s' },
      { x: 2500, from: 2000, to: 3000, runs: 1, range: '2s – 3s' },
    ]);
    expect(view.marks).toEqual([
      { key: 'p50', label: 'P50', x: 1500, valueLabel: '1.5s' },
      { key: 'p99', label: 'P99', x: 3000, valueLabel: '3s' },
    ]);
    expect(view.domain).toEqual([1000, 3000]);
  });

  it('widens a degenerate axis (every run the same) and handles no runs', () => {
    const same = runHistogramSchema.parse({
      metric: 'cost',
      runs: 3,
      min: 0.5,
      max: 0.5,
      buckets: [{ from: 0.5, to: 0.5, runs: 3 }],
    });
    const view = prepareHistogram(same, [], (x) => x, String);
    expect(view.bars[0]).toMatchObject({ x: 0.5, range: '0.5' });
    expect(view.domain).toEqual([-0.5, 1.5]);
    const none = prepareHistogram(
      runHistogramSchema.parse({ metric: 'cost', runs: 0, min: 0, max: 0, buckets: [] }),
      [],
      (x) => x,
      String,
    );
    expect(none).toEqual({ bars: [], marks: [], domain: [0, 1] });
  });
});
