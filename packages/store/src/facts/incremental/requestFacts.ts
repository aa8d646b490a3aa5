import { computeRunFacts } from './computeRunFacts.js';
import type { FactSpan } from './FactSpan.js';
import { addFactRowLines, type FactRowLines } from './factRowLines.js';
import { readFactSpans } from './readFactSpans.js';

/**
 * The facts of one run computed from the spans of one export request, as
 * open fact row lines (factRowLines), with what storage must hold for them
 * to be the run's: `spans` rows of the run and none under its `traces`
 * (spans naming no run are stored under their trace id).
 */
export interface RequestRunFacts {
  runId: string;
  spans: number;
  traces: string[];
  lines: FactRowLines;
}

/**
 * The facts of the runs that arrive whole in one export request, computed
 * where the request is decoded (an ingest worker), from the spans Arrow
 * message it wrote: a run is taken when the request holds its root (a span
 * of kind `run`, or one marked as the run's root: the root ends last, so it
 * is exported last) and all its spans name it. Whether the request held
 * every span of the run is only known once it is stored: the writer checks
 * the span counts (RunFacts.addRequestFacts), and a run that fails the
 * check is finalised by SQL. Empty when the message cannot be read.
 */
export function computeRequestFacts(projectId: string, message: Uint8Array): RequestRunFacts[] {
  const batch = readFactSpans(message);
  if (batch === undefined) return [];
  const runs = new Map<
    string,
    { spans: Map<string, FactSpan>; traces: Set<string>; rooted: boolean; tagged: boolean }
  >();
  for (let i = 0; i < batch.spans.length; i++) {
    if (batch.projectIds[i] !== projectId) continue;
    const runId = batch.runIds[i]!;
    const span = batch.spans[i]!;
    let run = runs.get(runId);
    if (run === undefined)
      runs.set(runId, (run = { spans: new Map(), traces: new Set(), rooted: false, tagged: true }));
    run.spans.set(span.spanId, span);
    run.traces.add(span.traceId);
    if (span.isRunRoot || span.stepKind === 'run') run.rooted = true;
    if (span.traceId === runId) run.tagged = false;
  }
  const out: RequestRunFacts[] = [];
  for (const [runId, run] of runs) {
    if (!run.rooted || !run.tagged) continue;
    const lines: FactRowLines = { steps: [], runSteps: [], runs: [] };
    addFactRowLines(lines, projectId, computeRunFacts(runId, [...run.spans.values()]));
    out.push({ runId, spans: run.spans.size, traces: [...run.traces], lines });
  }
  return out;
}
