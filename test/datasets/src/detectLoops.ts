import type { PriceTable, SpanRecord } from '@telltale/store';
import type { LoopThresholds } from './DatasetSpec.js';
import type { LoopTruth } from './DatasetTruth.js';
import { byStartThenId } from './attemptGroups.js';
import { spanCostUsd } from './spanCostUsd.js';

function detection(
  base: Pick<LoopTruth, 'kind' | 'variant' | 'count'>,
  evidence: readonly SpanRecord[],
  skip: number,
  prices: PriceTable,
): LoopTruth {
  let wastedNs = 0;
  let wastedCostUsd = 0;
  for (const s of evidence.slice(skip)) {
    wastedNs += Number(s.endTimeUnixNano - s.startTimeUnixNano);
    wastedCostUsd += spanCostUsd(s, prices).costUsd;
  }
  return { ...base, evidenceSpanIds: evidence.map((s) => s.spanId), wastedNs, wastedCostUsd };
}

function groupBy(spans: readonly SpanRecord[], key: (s: SpanRecord) => string): SpanRecord[][] {
  const m = new Map<string, SpanRecord[]>();
  for (const s of spans) {
    const k = key(s);
    const list = m.get(k);
    if (list === undefined) m.set(k, [s]);
    else list.push(s);
  }
  return [...m.values()];
}

/** Maximal runs of tool calls alternating between two names (A, B, A, B, …). */
function alternations(tools: readonly SpanRecord[]): SpanRecord[][] {
  const out: SpanRecord[][] = [];
  let start = 0;
  for (let i = 1; i <= tools.length; i++) {
    const name = tools[i]?.toolName;
    const continues =
      i < tools.length && name !== tools[i - 1]!.toolName && (i - start < 2 || name === tools[i - 2]!.toolName);
    if (continues) continue;
    if (i - start >= 2) out.push(tools.slice(start, i));
    start = i < tools.length && name !== tools[i - 1]!.toolName ? i - 1 : i;
  }
  return out;
}

/**
 * Reference loop detection over one run's spans (RELIABILITY-MATH "Loops and
 * no progress"), with wasted time and cost = the evidence spans after the
 * first (after the first cycle for ping-pong; beyond the threshold for
 * runaway). Steps are spans whose kind is neither '' nor 'run'.
 */
export function detectLoops(
  runSpans: readonly SpanRecord[],
  t: LoopThresholds,
  runawayThreshold: number,
  prices: PriceTable,
): LoopTruth[] {
  const sorted = [...runSpans].sort(byStartThenId);
  const out: LoopTruth[] = [];
  const tools = sorted.filter((s) => s.stepKind === 'tool');
  for (const same of groupBy(tools, (s) => `${s.toolName}\u0000${s.toolArgsHash}`)) {
    if (same.length >= t.repeatThreshold)
      out.push(detection({ kind: 'repeated_action', variant: 'tool_args', count: same.length }, same, 1, prices));
  }
  const stated = sorted.filter((s) => (s.stepKind === 'plan' || s.stepKind === 'validate') && s.stateHash !== '');
  for (const same of groupBy(stated, (s) => s.stateHash)) {
    if (same.length >= t.repeatThreshold)
      out.push(detection({ kind: 'no_progress', variant: 'state_hash', count: same.length }, same, 1, prices));
  }
  const validations = sorted.filter((s) => s.stepKind === 'validate');
  let streak: SpanRecord[] = [];
  for (let i = 0; i <= validations.length; i++) {
    const v = validations[i];
    const extends_ =
      v !== undefined &&
      v.statusCode === 2 &&
      v.outputHash !== '' &&
      (streak.length === 0 || streak[0]!.outputHash === v.outputHash);
    if (extends_) {
      streak.push(v);
      continue;
    }
    if (streak.length >= t.repeatThreshold)
      out.push(
        detection({ kind: 'no_progress', variant: 'failed_validation', count: streak.length }, streak, 1, prices),
      );
    streak = v !== undefined && v.statusCode === 2 && v.outputHash !== '' ? [v] : [];
  }
  for (const alt of alternations(tools)) {
    const cycles = Math.floor(alt.length / 2);
    if (cycles >= t.pingPongCycles)
      out.push(detection({ kind: 'ping_pong', variant: 'alternation', count: cycles }, alt, 2, prices));
  }
  const steps = sorted.filter((s) => s.stepKind !== '' && s.stepKind !== 'run');
  if (steps.length > runawayThreshold)
    out.push(
      detection(
        { kind: 'runaway', variant: 'step_count', count: steps.length },
        steps.slice(runawayThreshold),
        0,
        prices,
      ),
    );
  return out;
}
