import { describe, expect, it } from 'vitest';
import { runHistogram } from './runHistogram.js';

describe('runHistogram', () => {
  it('gives each bin its bounds, the last one ending at the max', () => {
    const h = runHistogram('duration', { runs: 6, min: 100, max: 400, counts: [3, 0, 3] });
    expect(h).toMatchObject({ metric: 'duration', unit: 'ns', runs: 6, bucketWidth: 100 });
    expect(h.buckets).toEqual([
      { from: 100, to: 200, runs: 3 },
      { from: 200, to: 300, runs: 0 },
      { from: 300, to: 400, runs: 3 },
    ]);
  });

  it('has one bucket when every run has the same value, and none without runs', () => {
    expect(runHistogram('cost', { runs: 4, min: 0.5, max: 0.5, counts: [4, 0] }).buckets).toEqual([
      { from: 0.5, to: 0.5, runs: 4 },
    ]);
    expect(runHistogram('cost', { runs: 0, min: 0, max: 0, counts: [] })).toMatchObject({
      unit: 'usd',
      runs: 0,
      buckets: [],
    });
  });
});
