import { StepKind } from '@telltale/semconv';
import type { SpanRecord } from '@telltale/store';

/** What nested usage reads and writes of a span. */
export type UsageRow = Pick<
  SpanRecord,
  'spanId' | 'parentSpanId' | 'stepKind' | 'inputTokens' | 'outputTokens' | 'cachedInputTokens' | 'costUsd'
>;

/** An llm step that reports usage (tokens or a cost). */
function llmWithUsage(s: UsageRow): boolean {
  return s.stepKind === StepKind.llm && (s.inputTokens + s.outputTokens > 0 || (s.costUsd ?? 0) > 0);
}

/**
 * Usage reported twice for the same call by nested llm spans — our SDK's
 * `llm` step with `recordUsage` around an instrumented client call, or two
 * instrumentations (OpenInference and OpenLLMetry) wrapping the same
 * client — is counted once, on the innermost span (RELIABILITY-MATH
 * "Cost"): an llm span with usage whose child is an llm span with usage
 * keeps its attributes but is stored with no tokens and no cost; an
 * explicit cost it had moves to the inner span when that one has none and
 * came in the same request. (Other
 * parents — a tool with a cost of its own over an llm call — are different
 * calls and keep theirs; run roots, handoffs and non-steps are never
 * counted by the store anyway.)
 *
 * Children end before their parents, so they come in the same request or an
 * earlier one: the parents of usage-bearing spans are remembered per
 * project and thread (up to `maxParents`, then afresh). A parent that
 * reaches storage before its child (a child that outlives it, or another
 * ingest worker) keeps its usage.
 */
export class NestedUsage {
  private readonly byProject = new Map<string, Set<string>>();

  constructor(private readonly maxParents = 65_536) {}

  apply(projectId: string, spans: readonly UsageRow[]): void {
    let parents = this.byProject.get(projectId);
    // the inner spans of this request by parent, for an outer explicit cost to move to
    let inner: Map<string, UsageRow> | undefined;
    for (const s of spans) {
      if (s.parentSpanId === '' || !llmWithUsage(s)) continue;
      if (parents === undefined) this.byProject.set(projectId, (parents = new Set<string>()));
      if (parents.size >= this.maxParents) parents.clear();
      parents.add(s.parentSpanId);
      (inner ??= new Map()).set(s.parentSpanId, s);
    }
    if (parents === undefined) return;
    for (const s of spans) {
      if (!llmWithUsage(s) || !parents.has(s.spanId)) continue;
      // an explicit cost wins over the price table: keep it, on the inner span, when that one has none
      const child = inner?.get(s.spanId);
      if (child !== undefined && child.costUsd === null && s.costUsd !== null) child.costUsd = s.costUsd;
      s.inputTokens = 0;
      s.outputTokens = 0;
      s.cachedInputTokens = 0;
      s.costUsd = null;
      parents.delete(s.spanId);
    }
  }
}
