import { LiveLoopDetector, loopSignalsOf, type LiveLoopEvent } from '@telltale/collector';
import { generateDataset, shuffleForDelivery, smallDataset } from '@telltale/datasets';
import { type SpanRecord } from '@telltale/store';
import { DEFAULT_LOOP_THRESHOLDS } from '@telltale/semconv';
import { describe, expect, it } from 'vitest';

/*
 * Live loop detection against the dataset's known loops: the spans delivered
 * as an exporter fleet would (runs interleaved, random batches, roots late),
 * each batch through the same extraction the ingest workers run, must make
 * the detector fire for exactly the runs that truly loop (runaway aside: it
 * needs the agent's median and is left to the stored facts), with a kind the
 * run truly has, before the run ends — and resolve each of them once.
 */
describe('live loop detection against the dataset truth', () => {
  const dataset = generateDataset(smallDataset({ runs: 1_500 }));
  const batches: SpanRecord[][] = shuffleForDelivery(dataset.spans, 11, { batchSize: [20, 400], lateRootShare: 0.3 });

  it('fires for exactly the looping runs, with a true kind, while they are open, and resolves each once', () => {
    const events: LiveLoopEvent[] = [];
    const ended = new Set<string>();
    const detector = new LiveLoopDetector({ ...DEFAULT_LOOP_THRESHOLDS, onEvent: (e) => events.push(e) });
    for (const batch of batches) {
      const firingBefore = events.length;
      detector.observe(loopSignalsOf('proj', batch));
      for (const e of events.slice(firingBefore))
        if (e.status === 'firing') expect(ended.has(e.runId), `${e.runId} fired after its root arrived`).toBe(false);
      for (const s of batch) if (s.stepKind === 'run') ended.add(s.runId);
    }

    const truthKinds = new Map<string, Set<string>>();
    for (const run of dataset.truth.runs) {
      const kinds = run.loops.map((l) => l.kind).filter((k) => k !== 'runaway');
      if (kinds.length > 0) truthKinds.set(run.runId, new Set(kinds));
    }
    const firing = events.filter((e) => e.status === 'firing');
    expect(truthKinds.size).toBeGreaterThan(20);
    expect(new Set(firing.map((e) => e.runId))).toEqual(new Set(truthKinds.keys()));
    expect(firing).toHaveLength(truthKinds.size);
    for (const e of firing) expect(truthKinds.get(e.runId)?.has(e.kind), `${e.runId}: ${e.kind}`).toBe(true);

    // every looping run that ended got exactly one resolved; the rest stay followed (incomplete runs)
    const resolved = events.filter((e) => e.status === 'resolved').map((e) => e.runId);
    expect(new Set(resolved).size).toBe(resolved.length);
    expect(new Set(resolved)).toEqual(new Set(firing.map((e) => e.runId).filter((r) => ended.has(r))));
    console.log(
      `live loops: ${firing.length} of ${dataset.truth.runs.length} runs fired (all true loops), ${resolved.length} resolved at their end`,
    );
  });
});
