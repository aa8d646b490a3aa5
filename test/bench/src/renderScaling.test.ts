import { describe, expect, it } from 'vitest';
import { renderScaling } from './renderScaling.js';
import type { ScalingReport, ScalingSize } from './runScaling.js';

const size = (runs: number, spans: number, cpu: number): ScalingSize => ({
  runs,
  totalSpans: spans * 2,
  spans,
  loadMs: 1_000,
  optimizeMs: 100,
  liveMs: { a: cpu + 5, b: 1, scan: 2 },
  mergedMs: { a: cpu + 1, b: 1, scan: 2 },
  liveCpuMs: { a: cpu, b: 1, scan: 2 },
  mergedCpuMs: { a: cpu, b: Number.NaN, scan: cpu / 10 },
  loadAverage: [1, 2],
});

describe('renderScaling', () => {
  it('one row per query, both states per size, the CPU ratio of the largest to the smallest size', () => {
    const report: ScalingReport = {
      date: '2026-11-26T00:00:00Z',
      command: 'npm run bench -- --scaling 1,3',
      iterations: 3,
      rollupCases: ['a'],
      catchUpCases: ['scan'],
      sizes: [size(1, 1_000_000, 20), size(3, 3_000_000, 30)],
    };
    const text = renderScaling(report);
    expect(text).toContain(
      '| query | 1.00M live | 1.00M merged | 3.00M live | 3.00M merged | 3.00M / 1.00M (merged, CPU) |',
    );
    expect(text).toContain('| ● a | 25.0 (20.0) | 21.0 (20.0) | 35.0 (30.0) | 31.0 (30.0) | 1.50 |');
    expect(text).toContain('| b | 1.0 (1.0) | 1.0 (failed) | 1.0 (1.0) | 1.0 (failed) | – |');
    // the catch-up scans come after the queries, in a table of their own
    const [queries = '', scans = ''] = text.split("The run facts catch-up's scan");
    expect(queries).not.toContain('| scan |');
    expect(scans).toContain('| scan | 2.0 (2.0) | 2.0 (2.0) | 2.0 (2.0) | 2.0 (3.0) | 1.50 |');
  });
});
