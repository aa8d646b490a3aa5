import type { SpanRecord } from '../../spans/SpanRecord.js';
import { factSpanOf, type FactSpan } from './FactSpan.js';

/** Spans kept at most, all runs together (about 0.75 KB each, measured): past it the least recently active runs are dropped. */
const DEFAULT_MAX_SPANS = 250_000;

interface RunState {
  projectId: string;
  runId: string;
  /** By span id (storage keeps one row per run and span id): a span stored again replaces the copy. */
  spans: Map<string, FactSpan>;
  /** The traces of its spans. */
  traces: Set<string>;
  /** Some span names no run (stored under its trace id): the trace resolver may move it. */
  untagged: boolean;
  /** Epoch ms after the latest insert of a span of the run. */
  ingestedMaxMs: number;
}

/**
 * The spans of recent runs as this process stored them, so that a run's
 * facts can be computed without reading its spans back
 * (computeRunFacts). Kept after a run is finalised, for its late spans;
 * bounded by `maxSpans`, dropping the least recently active runs whole.
 * A run is only computed from here when storage holds as many of its spans
 * as this state does (RunFacts checks): a run with spans from before a
 * restart, from another process, moved in by the trace resolver, evicted,
 * or stored twice goes to the SQL finaliser.
 */
export class RunFactsState {
  private readonly runs = new Map<string, RunState>();
  private spanCount = 0;
  private readonly maxSpans: number;

  constructor(opts: { maxSpans?: number } = {}) {
    this.maxSpans = opts.maxSpans ?? DEFAULT_MAX_SPANS;
  }

  /** Records stored spans (after their insert succeeded). */
  addRecords(records: readonly SpanRecord[], nowMs = Date.now()): void {
    let run: RunState | undefined;
    for (const r of records) {
      if (run === undefined || run.runId !== r.runId || run.projectId !== r.projectId)
        run = this.touch(r.projectId, r.runId, nowMs);
      const before = run.spans.size;
      run.spans.set(r.spanId, factSpanOf(r));
      if (!run.traces.has(r.traceId)) run.traces.add(r.traceId);
      if (r.traceId === r.runId) run.untagged = true;
      this.spanCount += run.spans.size - before;
    }
    this.evict();
  }

  /** The spans of a run and when the latest was stored, when `storedSpans` (what storage counts) is what this state holds. */
  spansOf(
    projectId: string,
    runId: string,
    storedSpans: number | undefined,
  ): { spans: FactSpan[]; ingestedMaxMs: number } | undefined {
    const run = this.runs.get(keyOf(projectId, runId));
    if (run === undefined || storedSpans !== run.spans.size) return undefined;
    return { spans: [...run.spans.values()], ingestedMaxMs: run.ingestedMaxMs };
  }

  /** The traces of a run held whole here whose spans all name it (none the trace resolver could move); undefined otherwise. */
  tracesOfTagged(projectId: string, runId: string): ReadonlySet<string> | undefined {
    const run = this.runs.get(keyOf(projectId, runId));
    return run === undefined || run.untagged ? undefined : run.traces;
  }

  /** Forgets a run (its facts are the SQL finaliser's from now on, until it is seen whole again). */
  drop(projectId: string, runId: string): void {
    const key = keyOf(projectId, runId);
    const run = this.runs.get(key);
    if (run === undefined) return;
    this.spanCount -= run.spans.size;
    this.runs.delete(key);
  }

  /** Spans held, all runs together. */
  spans(): number {
    return this.spanCount;
  }

  private touch(projectId: string, runId: string, nowMs: number): RunState {
    const key = keyOf(projectId, runId);
    let run = this.runs.get(key);
    if (run === undefined)
      run = { projectId, runId, spans: new Map(), traces: new Set(), untagged: false, ingestedMaxMs: nowMs };
    else this.runs.delete(key); // to the end: the most recently active
    run.ingestedMaxMs = Math.max(run.ingestedMaxMs, nowMs);
    this.runs.set(key, run);
    return run;
  }

  private evict(): void {
    for (const [key, run] of this.runs) {
      if (this.spanCount <= this.maxSpans) return;
      this.spanCount -= run.spans.size;
      this.runs.delete(key);
    }
  }
}

const keyOf = (projectId: string, runId: string): string => `${projectId.length}:${projectId}${runId}`;
