import type { SpanRecord } from '@telltale/store';

/** The service that records the downstream spans of the cross-service runs. */
export const DOWNSTREAM_SERVICE = 'tool-service';

/**
 * A variant of a dataset in which `fraction` of the runs cross services: in
 * those, every tool span and its descendants are recorded by another
 * service instrumented with plain OpenTelemetry, so they carry no run id and
 * the collector stores them under their trace id (as a thread that has not
 * seen the run's tagged spans does). Nothing else changes, so the truth of
 * every run (outcome, cost, spans) is the original dataset's: the store must
 * put the spans back into their run. Runs are picked in run id order (every
 * run with a tool span, until the fraction of all runs is reached), so the
 * variant is deterministic; `crossRunIds` names them.
 */
export function crossServiceVariant(
  spans: readonly SpanRecord[],
  fraction: number,
): { spans: SpanRecord[]; crossRunIds: string[] } {
  const byRun = new Map<string, SpanRecord[]>();
  for (const s of spans) {
    const run = byRun.get(s.runId);
    if (run === undefined) byRun.set(s.runId, [s]);
    else run.push(s);
  }
  const wanted = Math.ceil(byRun.size * fraction);
  const crossRunIds: string[] = [];
  const moved = new Set<SpanRecord>();
  for (const runId of [...byRun.keys()].sort()) {
    if (crossRunIds.length >= wanted) break;
    const run = byRun.get(runId)!;
    if (run.some((s) => s.runId === s.traceId)) continue; // already keyed by its trace
    const children = new Map<string, SpanRecord[]>();
    for (const s of run) {
      const siblings = children.get(s.parentSpanId);
      if (siblings === undefined) children.set(s.parentSpanId, [s]);
      else siblings.push(s);
    }
    const downstream: SpanRecord[] = [];
    const take = (s: SpanRecord): void => {
      downstream.push(s);
      for (const c of children.get(s.spanId) ?? []) take(c);
    };
    for (const s of run) if (s.stepKind === 'tool') take(s);
    if (downstream.length === 0) continue;
    crossRunIds.push(runId);
    for (const s of downstream) moved.add(s);
  }
  if (crossRunIds.length < wanted) throw new Error(`only ${crossRunIds.length} of ${wanted} runs have a tool span`);
  return {
    spans: spans.map((s) => (moved.has(s) ? { ...s, runId: s.traceId, serviceName: DOWNSTREAM_SERVICE } : s)),
    crossRunIds,
  };
}
