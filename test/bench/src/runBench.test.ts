import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { benchOptions, SMOKE_RUNS } from './BenchOptions.js';
import { facadeMethods } from './benchCases.js';
import { renderReport } from './renderReport.js';
import { runBench, type BenchReport } from './runBench.js';

// The smoke mode: the whole bench on 2,000 runs (≈ 200k spans), one timed
// iteration, so the bench code keeps working. No timing assertions: CI
// machines are too noisy for them.
describe('the analytics bench (smoke mode)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'telltale-bench-smoke-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  let report: BenchReport | undefined;
  const smoke = async (): Promise<BenchReport> => {
    report ??= await runBench({
      ...benchOptions({ runs: SMOKE_RUNS, iterations: 1, dataDir, quietWaitMs: 0, prototypes: true }),
      command: 'vitest smoke',
    });
    return report;
  };

  it('times every facade query method, the runs list, a run and a trace, each with a finite median', { timeout: 600_000 }, async () => {
    const r = await smoke();
    const methods = new Set(r.results.map((c) => c.method));
    for (const m of facadeMethods()) expect(methods, `Analytics#${m}`).toContain(`Analytics#${m}`);
    expect(methods).toContain('Analytics#listRuns');
    expect(methods).toContain('Analytics#getRun');
    expect(methods).toContain('Store#getTraceSpans');
    for (const c of r.results) {
      expect(c.error, c.name).toBeUndefined();
      expect(Number.isFinite(c.ours?.medianMs), c.name).toBe(true);
      if (c.kind === 'overview' && !c.generic) expect(Number.isFinite(c.plain?.medianMs), `${c.name} baseline`).toBe(true);
    }
  });

  it('checks that each baseline computes the same numbers as the store', { timeout: 600_000 }, async () => {
    const r = await smoke();
    const withBaseline = r.results.filter((c) => c.disagreements !== undefined);
    expect(withBaseline.length).toBeGreaterThan(10);
    for (const c of withBaseline) expect(c.disagreements, c.name).toEqual([]);
  });

  it('runs every prototype fix and checks it computes the same numbers as today', { timeout: 600_000 }, async () => {
    const r = await smoke();
    expect(r.prototypes.length).toBeGreaterThanOrEqual(8);
    for (const c of r.prototypes) {
      expect(c.error, c.name).toBeUndefined();
      expect(Number.isFinite(c.plain?.medianMs), c.name).toBe(true);
      expect(c.disagreements, c.name).toEqual([]);
    }
  });

  it('loads the smoke dataset and reports storage, memory and the markdown table', { timeout: 600_000 }, async () => {
    const r = await smoke();
    expect(r.load.runs).toBe(SMOKE_RUNS);
    expect(r.storage.rows).toBe(r.load.spans);
    expect(r.storage.bytesPerSpan).toBeGreaterThan(0);
    expect(r.rssMiB.peakDuringQueries).toBeGreaterThan(0);
    const text = renderReport(r);
    for (const c of r.results) expect(text).toContain(`| ${c.name}`);
  });
});
