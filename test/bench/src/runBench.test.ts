import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { benchOptions, SMOKE_RUNS } from './BenchOptions.js';
import { facadeMethods } from './benchCases.js';
import { renderReport } from './renderReport.js';
import { runBench, type BenchReport } from './runBench.js';
import { FACTS_TABLES, FINALISER_RUNS } from './runFactsBench.js';

// The smoke mode: the whole bench on 2,000 runs (≈ 200k spans), one timed
// iteration, so the bench code keeps working. No timing assertions: CI
// machines are too noisy for them.
describe('the analytics bench (smoke mode)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'telltale-bench-smoke-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  let report: BenchReport | undefined;
  const smoke = async (): Promise<BenchReport> => {
    report ??= await runBench({
      ...benchOptions({ runs: SMOKE_RUNS, iterations: 1, dataDir, quietWaitMs: 0 }),
      command: 'vitest smoke',
    });
    return report;
  };

  it(
    'times every facade query method, the runs list, a run and a trace, each with a finite median',
    { timeout: 600_000 },
    async () => {
      const r = await smoke();
      const methods = new Set(r.results.map((c) => c.method));
      for (const m of facadeMethods()) expect(methods, `Analytics#${m}`).toContain(`Analytics#${m}`);
      expect(methods).toContain('Analytics#listRuns');
      expect(methods).toContain('Analytics#getRun');
      expect(methods).toContain('Analytics#getTraceSpans');
      for (const c of r.results) {
        expect(c.error, c.name).toBeUndefined();
        expect(Number.isFinite(c.ours?.medianMs), c.name).toBe(true);
        if (c.kind === 'overview' && !c.generic)
          expect(Number.isFinite(c.plain?.medianMs), `${c.name} baseline`).toBe(true);
      }
    },
  );

  it('checks that each baseline computes the same numbers as the store', { timeout: 600_000 }, async () => {
    const r = await smoke();
    const withBaseline = r.results.filter((c) => c.disagreements !== undefined);
    expect(withBaseline.length).toBeGreaterThan(10);
    for (const c of withBaseline) expect(c.disagreements, c.name).toEqual([]);
  });

  it(
    'times the run-facts finaliser over the newest runs of the project (all of them in smoke mode)',
    { timeout: 600_000 },
    async () => {
      const r = await smoke();
      expect(r.finaliser.runs).toBe(Math.min(FINALISER_RUNS, r.project.runs));
      expect(r.finaliser.runs).toBeGreaterThan(0);
      expect(r.finaliser.wallMs).toBeGreaterThan(0);
      expect(r.finaliser.cpuMs).toBeGreaterThan(0);
      expect(renderReport(r)).toContain(`the project's ${r.finaliser.runs.toLocaleString('en')} newest runs`);
    },
  );

  it('loads the smoke dataset and reports storage, memory and the markdown table', { timeout: 600_000 }, async () => {
    const r = await smoke();
    expect(r.load.runs).toBe(SMOKE_RUNS);
    expect(r.storage.rows).toBe(r.load.spans);
    expect(r.storage.bytesPerSpan).toBeGreaterThan(0);
    expect(r.storage.facts.map((t) => t.table)).toEqual([...FACTS_TABLES]);
    for (const t of r.storage.facts) {
      expect(t.bytesOnDisk, t.table).toBeGreaterThan(0);
      expect(t.rows, t.table).toBeGreaterThan(0);
    }
    // Settled: one run_facts row per run of the dataset, the finaliser's rows merged away.
    expect(r.storage.facts[0]?.rows).toBe(SMOKE_RUNS);
    expect(r.storage.factsBytesPerSpan).toBeGreaterThan(0);
    expect(r.rssMiB.peakDuringQueries).toBeGreaterThan(0);
    const text = renderReport(r);
    for (const c of r.results) expect(text).toContain(`| ${c.name}`);
  });
});
