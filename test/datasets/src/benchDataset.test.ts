import type { SpanRecord } from '@telltale/store';
import { describe, expect, it } from 'vitest';
import type { DatasetTruth } from './DatasetTruth.js';
import { analyzeRuns } from './analyzeRuns.js';
import { benchDataset } from './benchDataset.js';
import { generateDatasetChunks } from './generateDatasetChunks.js';

describe('benchDataset', () => {
  const spec = benchDataset({ runs: 1_500, endNs: 1_800_000_000_000_000_000n });
  const spans: SpanRecord[] = [];
  let truth: DatasetTruth | undefined;
  for (const chunk of generateDatasetChunks(spec, { runsPerChunk: 250 })) {
    spans.push(...chunk.spans);
    if (chunk.last) truth = chunk.truthSoFar();
  }

  it('averages ~100 spans per run; successful clean runs have 60–160', () => {
    expect(spans.length / 1_500).toBeGreaterThan(85);
    expect(spans.length / 1_500).toBeLessThan(115);
    const counts = truth!.runs.filter((r) => r.loops.length === 0 && r.outcome === 'success').map((r) => r.spanCount);
    expect(counts.filter((n) => n >= 60 && n <= 160).length / counts.length).toBeGreaterThan(0.97);
  });

  it('has truth that an independent reading of the spans confirms (runaway cap 400)', () => {
    const facts = analyzeRuns(spans, { thresholds: spec.thresholds, prices: spec.cost.prices });
    for (const r of truth!.runs) {
      const f = facts.get(r.runId)!;
      expect([
        f.outcome,
        f.primaryCause,
        f.steps,
        f.groups.length,
        f.loops.map((l) => `${l.kind}:${l.count}:${l.evidenceSpanIds.length}`),
      ]).toEqual([
        r.outcome,
        r.primaryCause,
        r.steps,
        r.attemptGroups,
        r.loops.map((l) => `${l.kind}:${l.count}:${l.evidenceSpanIds.length}`),
      ]);
    }
    expect(truth!.totals.loops.runaway).toBeGreaterThan(3);
    for (const a of truth!.agents) expect(a.runawayThreshold).toBe(400);
  });
});
