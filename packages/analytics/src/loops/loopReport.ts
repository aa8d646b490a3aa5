import type { StoreRows } from '@telltale/store';
import { LOOP_KIND_OF_VARIANT, type LoopKind, type LoopThresholds, type LoopVariant } from '@telltale/semconv';
import { detectLoops, type LoopDetection, type LoopStep } from './detectLoops.js';

/** Evidence span ids listed per detection; `spanCount` has the full number. */
export const EVIDENCE_SPAN_CAP = 50;

export interface LoopEvidence {
  toolName?: string;
  argsHash?: string;
  stateHash?: string;
  outputHash?: string;
  /** Ping-pong: the two alternating tools. */
  cycle?: [string, string];
  /** Runaway: the run's limit and the agent's median it came from (null: the hard cap alone). */
  stepLimit?: number;
  agentMedianSteps?: number | null;
  /** The detection's spans in start order, at most EVIDENCE_SPAN_CAP. */
  spanIds: string[];
  spanCount: number;
}

export interface LoopDetectionView {
  runId: string;
  agent: string;
  service: string;
  runOutcome: StoreRows.RunOutcomeValue;
  runStartUnixNano: string;
  kind: LoopKind;
  variant: LoopVariant;
  /** Repeats (repeated action, no progress), cycles (ping-pong), or steps in the run (runaway). */
  count: number;
  wastedNs: number;
  wastedCostUsd: number;
  evidence: LoopEvidence;
}

export interface LoopsReport {
  detections: LoopDetectionView[];
  /** Detections matching the kind filter. */
  total: number;
  limit: number;
  offset: number;
  /** Runs looked at. */
  runs: number;
  /** Per kind: runs flagged, detections, and wasted time / cost (each wasted span once). */
  byKind: Record<LoopKind, StoreRows.LoopTotals>;
  /** All kinds together: a span wasted by several detections counts once. */
  overall: StoreRows.LoopTotals;
  thresholds: LoopThresholds;
}

export function toLoopStep(r: StoreRows.LoopStepRow): LoopStep {
  return {
    spanId: r.spanId,
    startNs: BigInt(r.startNs),
    kind: r.kind,
    name: r.name,
    argsHash: r.argsHash,
    stateHash: r.stateHash,
    outputHash: r.outputHash,
    ok: r.ok,
    durationNs: r.durationNs,
    costUsd: r.costUsd,
  };
}

function evidenceOf(d: LoopDetection | undefined, agentMedianSteps: number | null, stepLimit: number): LoopEvidence {
  const ev: LoopEvidence = {
    spanIds: (d?.spanIds ?? []).slice(0, EVIDENCE_SPAN_CAP),
    spanCount: d?.spanIds.length ?? 0,
  };
  if (d?.toolName !== undefined) ev.toolName = d.toolName;
  if (d?.argsHash !== undefined) ev.argsHash = d.argsHash;
  if (d?.stateHash !== undefined) ev.stateHash = d.stateHash;
  if (d?.outputHash !== undefined) ev.outputHash = d.outputHash;
  if (d?.cycle !== undefined) ev.cycle = d.cycle;
  if (d?.variant === 'step_count') {
    ev.stepLimit = stepLimit;
    ev.agentMedianSteps = agentMedianSteps;
  }
  return ev;
}

/**
 * The page of detections the SQL found, with evidence from the TS detector
 * run over the page's runs (the same rules): each SQL row is matched to the
 * TS detection of the same run, variant and first span. Counts and
 * waste are the SQL's; a row without a match (the two disagree) keeps empty
 * evidence.
 */
export function loopReport(
  page: StoreRows.LoopPage,
  steps: readonly StoreRows.LoopStepRow[],
  thresholds: LoopThresholds,
  paging: { limit: number; offset: number },
): LoopsReport {
  const byRun = new Map<string, LoopStep[]>();
  for (const r of steps) {
    const list = byRun.get(r.runId);
    if (list === undefined) byRun.set(r.runId, [toLoopStep(r)]);
    else list.push(toLoopStep(r));
  }
  const found = new Map<string, LoopDetection[]>();
  const detectionsOf = (runId: string, agentMedianSteps: number | null): LoopDetection[] => {
    let list = found.get(runId);
    if (list === undefined) {
      list = detectLoops(byRun.get(runId) ?? [], thresholds, { agentMedianSteps });
      found.set(runId, list);
    }
    return list;
  };
  const used = new Set<LoopDetection>();
  const detections = page.detections.map((row): LoopDetectionView => {
    const match = detectionsOf(row.runId, row.agentMedianSteps).find(
      (d) => !used.has(d) && d.variant === row.variant && d.spanIds[0] === row.anchorSpanId,
    );
    if (match !== undefined) used.add(match);
    return {
      runId: row.runId,
      agent: row.agent,
      service: row.service,
      runOutcome: row.runOutcome,
      runStartUnixNano: row.runStartUnixNano,
      kind: LOOP_KIND_OF_VARIANT[row.variant],
      variant: row.variant,
      count: row.count,
      wastedNs: row.wastedNs,
      wastedCostUsd: row.wastedCostUsd,
      evidence: evidenceOf(match, row.agentMedianSteps, row.stepLimit),
    };
  });
  return {
    detections,
    total: page.total,
    limit: paging.limit,
    offset: paging.offset,
    runs: page.runs,
    byKind: page.byKind,
    overall: page.overall,
    thresholds,
  };
}
