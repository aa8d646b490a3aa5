import type { LoopThresholds } from './DatasetSpec.js';
import type { LoopTruth } from './DatasetTruth.js';
import type { LoopPlan } from './LoopPlan.js';
import type { RunRecorder } from './RunRecorder.js';

function byStart(rec: RunRecorder): (a: number, b: number) => number {
  return (a, b) => rec.relStart[a]! - rec.relStart[b]! || (rec.spans[a]!.spanId < rec.spans[b]!.spanId ? -1 : 1);
}

/** A detection whose waste is the evidence spans from position `skip` on. */
function detection(
  rec: RunRecorder,
  base: Pick<LoopTruth, 'kind' | 'variant' | 'count'>,
  evidence: number[],
  skip: number,
): LoopTruth {
  let wastedNs = 0;
  let wastedCostUsd = 0;
  for (let i = skip; i < evidence.length; i++) {
    wastedNs += rec.durationOf(evidence[i]!);
    wastedCostUsd += rec.cost[evidence[i]!]!;
  }
  return { ...base, evidenceSpanIds: evidence.map((i) => rec.spans[i]!.spanId), wastedNs, wastedCostUsd };
}

/**
 * The detections a correct detector must report for a run: the injected loop
 * (evidence collected while the run was built), and runaway whenever the run
 * has more steps than the hard cap (the dataset checks that the cap is the
 * threshold, i.e. multiplier × median ≤ cap, when the truth is finished).
 */
export function buildLoopTruths(rec: RunRecorder, plan: LoopPlan | undefined, t: LoopThresholds): LoopTruth[] {
  const out: LoopTruth[] = [];
  if (plan !== undefined && plan.kind !== 'runaway') {
    const evidence = [...plan.evidence].sort(byStart(rec));
    if (plan.kind === 'ping_pong')
      out.push(
        detection(rec, { kind: plan.kind, variant: plan.variant, count: Math.floor(evidence.length / 2) }, evidence, 2),
      );
    else out.push(detection(rec, { kind: plan.kind, variant: plan.variant, count: evidence.length }, evidence, 1));
  }
  if (rec.steps > t.runawayHardCap) {
    const steps: number[] = [];
    for (let i = 0; i < rec.spans.length; i++) {
      const kind = rec.spans[i]!.stepKind;
      if (kind !== '' && kind !== 'run') steps.push(i);
    }
    steps.sort(byStart(rec));
    out.push(
      detection(rec, { kind: 'runaway', variant: 'step_count', count: steps.length }, steps.slice(t.runawayHardCap), 0),
    );
  }
  return out;
}
