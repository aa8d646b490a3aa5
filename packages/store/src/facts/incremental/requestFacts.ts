import { computeRunFacts } from './computeRunFacts.js';
import type { FactSpan } from './FactSpan.js';
import { FactRowsWriter, type FactRowBytes, type RunRows, type TableRows } from './factRowBytes.js';
import { readFactSpans } from './readFactSpans.js';

/**
 * The facts of one run computed from the spans of one export request, with
 * what storage must hold for them to be the run's: `spans` rows of the run
 * and none under its `traces` (spans naming no run are stored under their
 * trace id). `rows` says where its fact rows are in the request's.
 */
export interface RequestRunFacts {
  runId: string;
  spans: number;
  traces: string[];
  rows: RunRows;
}

/** The runs a request held whole and their fact rows (RowBinary, stamped when written). */
export interface RequestFactRows {
  runs: RequestRunFacts[];
  rows: FactRowBytes;
}

/** One writer for the thread: the function is synchronous, and `finish` hands its rows out. */
const writer = new FactRowsWriter();

/**
 * The facts of the runs that arrive whole in one export request, computed
 * where the request is decoded (an ingest worker), from the spans Arrow
 * message it wrote: a run is taken when the request holds its root (a span
 * of kind `run`, or one marked as the run's root: the root ends last, so it
 * is exported last) and all its spans name it. Whether the request held
 * every span of the run is only known once it is stored: the writer checks
 * the span counts (RunFacts.addRequestFacts), and a run that fails the
 * check is finalised by SQL. No runs when the message cannot be read.
 */
export function computeRequestFacts(projectId: string, message: Uint8Array): RequestFactRows {
  const out: RequestRunFacts[] = [];
  const batch = readFactSpans(message);
  if (batch !== undefined) {
    /** Per run: its spans, each id once (a repeat replaces the span in its place), and where each id is. */
    const runs = new Map<
      string,
      {
        spans: FactSpan[];
        positions: Map<string, number>;
        traces: Set<string>;
        lastTrace: string;
        rooted: boolean;
        tagged: boolean;
      }
    >();
    for (let i = 0; i < batch.spans.length; i++) {
      if (batch.projectIds[i] !== projectId) continue;
      const runId = batch.runIds[i]!;
      const span = batch.spans[i]!;
      let run = runs.get(runId);
      if (run === undefined)
        runs.set(
          runId,
          (run = { spans: [], positions: new Map(), traces: new Set(), lastTrace: '', rooted: false, tagged: true }),
        );
      const at = run.positions.get(span.spanId);
      if (at === undefined) {
        run.positions.set(span.spanId, run.spans.length);
        run.spans.push(span);
      } else run.spans[at] = span;
      // a trace's spans lie together: the set is asked only when the trace changes
      if (span.traceId !== run.lastTrace) run.traces.add((run.lastTrace = span.traceId));
      if (span.isRunRoot || span.stepKind === 'run') run.rooted = true;
      if (span.traceId === runId) run.tagged = false;
    }
    for (const [runId, run] of runs) {
      if (!run.rooted || !run.tagged) continue;
      const rows = writer.add(projectId, computeRunFacts(runId, run.spans, run.positions));
      out.push({ runId, spans: run.spans.length, traces: [...run.traces], rows });
    }
  }
  return { runs: out, rows: writer.finish() };
}

/** A request without facts (its own buffers, so it can be transferred like any other). */
export function noRequestFacts(): RequestFactRows {
  const none = (): TableRows => ({ bytes: new Uint8Array(0), starts: new Uint32Array(1) });
  return { runs: [], rows: { steps: none(), runSteps: none(), runs: none() } };
}

/** The buffers a RequestFactRows holds (to transfer it between threads rather than copy it). */
export function requestFactBuffers(facts: RequestFactRows): ArrayBuffer[] {
  const { steps, runSteps, runs } = facts.rows;
  const all = [steps.bytes.buffer, steps.starts.buffer, runSteps.starts.buffer, runs.starts.buffer];
  if (runSteps.bytes.buffer !== steps.bytes.buffer) all.push(runSteps.bytes.buffer);
  if (runs.bytes.buffer !== steps.bytes.buffer) all.push(runs.bytes.buffer);
  return all as ArrayBuffer[];
}

/** Bytes a RequestFactRows holds. */
export function requestFactBytes(facts: RequestFactRows): number {
  const { steps, runSteps, runs } = facts.rows;
  return steps.bytes.byteLength + runSteps.bytes.byteLength + runs.bytes.byteLength;
}
