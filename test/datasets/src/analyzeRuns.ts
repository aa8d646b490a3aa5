import type { PriceTable, SpanRecord } from '@telltale/store';
import type { LoopThresholds } from './DatasetSpec.js';
import type { FailureCause, GapClass, LoopTruth, RunOutcomeTruth } from './DatasetTruth.js';
import { attemptGroups, byStartThenId, type AttemptGroup } from './attemptGroups.js';
import { detectLoops } from './detectLoops.js';
import { exactPercentile } from './exactPercentile.js';
import { spanCostUsd, usageCounts } from './spanCostUsd.js';

/** What the definitions say about one run, computed from its spans alone. */
export interface RunFacts {
  runId: string;
  projectId: string;
  /** The root's name ('' when incomplete). */
  agent: string;
  service: string;
  outcome: RunOutcomeTruth;
  primaryCause: FailureCause | null;
  gapClass: GapClass | null;
  /** Root duration; the spans' extent when incomplete. */
  durationNs: number;
  spanCount: number;
  steps: number;
  groups: AttemptGroup[];
  failedGroups: number;
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
  unpricedSpans: number;
  loops: LoopTruth[];
}

function cause(
  spans: readonly SpanRecord[],
  root: SpanRecord,
  groups: readonly AttemptGroup[],
  loops: number,
): FailureCause {
  if (loops > 0) return 'loop';
  if (spans.some((s) => s.sideEffect && s.statusCode !== 2)) return 'partial_execution';
  const failed = groups.filter((g) => !g.anyOk);
  if (failed.some((g) => g.stepKind === 'tool')) return 'tool_failure';
  const validations = spans.filter((s) => s.stepKind === 'validate').sort(byStartThenId);
  if (validations.at(-1)?.statusCode === 2) return 'validation_exhausted';
  if (failed.some((g) => g.stepKind === 'llm')) return 'llm_error';
  if (/timeout/i.test(root.errorType)) return 'timeout';
  return 'unknown';
}

/**
 * Reference implementation of the run-level definitions, independent of the
 * generator: outcome from the root (ERROR or `run_outcome=failure` → failure,
 * no root → incomplete), cost with the aggregate rule, attempt groups, loop
 * detections (runaway threshold = max(multiplier × the agent's median steps
 * over its completed runs, hard cap); the cap for incomplete runs), primary
 * cause in priority order (timeout: the root's error type contains
 * "timeout" — recovered attempts that timed out do not count) and the gap
 * class.
 */
export function analyzeRuns(
  spans: readonly SpanRecord[],
  opts: { thresholds: LoopThresholds; prices: PriceTable },
): Map<string, RunFacts> {
  const byRun = new Map<string, SpanRecord[]>();
  for (const s of spans) {
    const list = byRun.get(s.runId);
    if (list === undefined) byRun.set(s.runId, [s]);
    else list.push(s);
  }
  const groupsByRun = new Map<string, AttemptGroup[]>();
  for (const g of attemptGroups(spans, opts.prices)) {
    const list = groupsByRun.get(g.runId);
    if (list === undefined) groupsByRun.set(g.runId, [g]);
    else list.push(g);
  }
  const stepsOf = (list: readonly SpanRecord[]): number =>
    list.filter((s) => s.stepKind !== '' && s.stepKind !== 'run').length;
  const stepCounts = new Map<string, number[]>();
  for (const list of byRun.values()) {
    const root = list.find((s) => s.isRunRoot);
    if (root === undefined) continue;
    const counts = stepCounts.get(root.name) ?? [];
    counts.push(stepsOf(list));
    stepCounts.set(root.name, counts);
  }
  const t = opts.thresholds;
  const threshold = new Map<string, number>();
  for (const [agent, counts] of stepCounts)
    threshold.set(agent, Math.max(t.runawayMultiplier * exactPercentile(counts, 0.5), t.runawayHardCap));

  const out = new Map<string, RunFacts>();
  for (const [runId, list] of byRun) {
    const root = list.find((s) => s.isRunRoot);
    const groups = groupsByRun.get(runId) ?? [];
    const failedGroups = groups.filter((g) => !g.anyOk).length;
    let costUsd = 0;
    let inputTokens = 0;
    let outputTokens = 0;
    let unpricedSpans = 0;
    let minStart = list[0]!.startTimeUnixNano;
    let maxEnd = list[0]!.endTimeUnixNano;
    for (const s of list) {
      const c = spanCostUsd(s, opts.prices);
      costUsd += c.costUsd;
      if (c.unpriced) unpricedSpans++;
      if (usageCounts(s.stepKind)) {
        inputTokens += s.inputTokens;
        outputTokens += s.outputTokens;
      }
      if (s.startTimeUnixNano < minStart) minStart = s.startTimeUnixNano;
      if (s.endTimeUnixNano > maxEnd) maxEnd = s.endTimeUnixNano;
    }
    const loops = detectLoops(list, t, root === undefined ? t.runawayHardCap : threshold.get(root.name)!, opts.prices);
    const outcome: RunOutcomeTruth =
      root === undefined
        ? 'incomplete'
        : root.statusCode === 2 || root.runOutcome === 'failure'
          ? 'failure'
          : 'success';
    let gapClass: GapClass | null = null;
    if (outcome === 'failure') gapClass = failedGroups > 0 ? 'step_explained' : 'seam';
    else if (outcome === 'success' && failedGroups > 0) gapClass = 'fallback_recovery';
    out.set(runId, {
      runId,
      projectId: list[0]!.projectId,
      agent: root?.name ?? '',
      service: root?.serviceName ?? list[0]!.serviceName,
      outcome,
      primaryCause: outcome === 'failure' && root !== undefined ? cause(list, root, groups, loops.length) : null,
      gapClass,
      durationNs:
        root === undefined ? Number(maxEnd - minStart) : Number(root.endTimeUnixNano - root.startTimeUnixNano),
      spanCount: list.length,
      steps: stepsOf(list),
      groups,
      failedGroups,
      costUsd,
      inputTokens,
      outputTokens,
      unpricedSpans,
      loops,
    });
  }
  return out;
}
