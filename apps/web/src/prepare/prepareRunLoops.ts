import type { LoopsReport } from '@telltale/api-contract';
import type { UnixNanos, Nanoseconds } from '../units';
import { unixNanosToEpochMillis } from '../units';
import type { LoopRow } from './prepareLoops';
import { LOOP_KIND_LABELS, prepareLoopRows } from './prepareLoops';

/** The window to ask for one run's loops: the day before it (agents' medians for the runaway limit) to just after its end. */
export function runLoopsWindow(start: UnixNanos, duration: Nanoseconds): { from: number; to: number } {
  const startMs = unixNanosToEpochMillis(start);
  return { from: startMs - 86_400_000, to: startMs + Math.ceil(duration / 1e6) + 60_000 };
}

export interface RunLoops {
  detections: LoopRow[];
  /** Evidence span id → the label of its (first) detection kind, for highlighting waterfall rows. */
  spanKinds: ReadonlyMap<string, string>;
  /** Each detection's evidence span ids, in the order and with the keys of `detections`. */
  evidence: LoopEvidenceRef[];
}

export interface LoopEvidenceRef {
  key: string;
  spanIds: readonly string[];
}

/** One run's loop detections and the spans that are their evidence. */
export function prepareRunLoops(report: LoopsReport | undefined, runId: string): RunLoops {
  const mine = report === undefined ? [] : report.detections.filter((d) => d.runId === runId);
  const spanKinds = new Map<string, string>();
  for (const d of mine)
    for (const id of d.evidence.spanIds)
      if (!spanKinds.has(id)) spanKinds.set(id, LOOP_KIND_LABELS[d.kind].toLowerCase());
  const detections = report === undefined ? [] : prepareLoopRows({ ...report, detections: mine });
  const evidence = detections.map((row, i) => ({ key: row.key, spanIds: mine[i]?.evidence.spanIds ?? [] }));
  return { detections, spanKinds, evidence };
}
