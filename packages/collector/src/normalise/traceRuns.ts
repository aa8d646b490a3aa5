import type { SpanRecord } from '@telltale/store';

/** What run assignment reads and writes of a span. */
export type RunRow = Pick<SpanRecord, 'traceId' | 'spanId' | 'parentSpanId' | 'runId'>;

/** A trace seen with spans of more than one run. */
const SEVERAL = '\u0000several';

/**
 * Run ids learned from spans that carry `telltale.run.id`, by project and
 * trace, so spans of the same trace that do not carry it — another
 * library's spans exported by a provider without our RunIdSpanProcessor,
 * a downstream service's spans — join that run instead of forming a run of
 * their own keyed by the trace id. One index per thread (each ingest worker
 * has its own), holding up to `maxTraces` traces per project, then starting
 * afresh: a span that arrives before any tagged span of its trace reached
 * this thread keeps the trace id as its run.
 */
export class TraceRuns {
  private readonly byProject = new Map<string, Map<string, string>>();

  constructor(private readonly maxTraces = 65_536) {}

  /**
   * Learns from the request's tagged spans, then gives each untagged span
   * (run id = its trace id) the run of its trace when the trace has one;
   * when it has several, the run of its nearest tagged ancestor in the
   * request, if any.
   */
  assign(projectId: string, spans: readonly RunRow[]): void {
    let known = this.byProject.get(projectId);
    let untagged = 0;
    for (const s of spans) {
      if (s.runId === s.traceId) {
        untagged++;
        continue;
      }
      if (known === undefined) this.byProject.set(projectId, (known = new Map<string, string>()));
      const prior = known.get(s.traceId);
      if (prior === s.runId || prior === SEVERAL) continue;
      if (prior === undefined && known.size >= this.maxTraces) known.clear();
      known.set(s.traceId, prior === undefined ? s.runId : SEVERAL);
    }
    if (untagged === 0 || known === undefined) return;

    let bySpanId: Map<string, RunRow> | undefined;
    for (const s of spans) {
      if (s.runId !== s.traceId) continue;
      const run = known.get(s.traceId);
      if (run === undefined) continue;
      if (run !== SEVERAL) {
        s.runId = run;
        continue;
      }
      bySpanId ??= new Map(spans.map((x) => [x.spanId, x]));
      let parent = bySpanId.get(s.parentSpanId);
      for (let depth = 0; parent !== undefined && parent.runId === parent.traceId && depth < 256; depth++)
        parent = bySpanId.get(parent.parentSpanId);
      if (parent !== undefined && parent.runId !== parent.traceId) s.runId = parent.runId;
    }
  }
}
