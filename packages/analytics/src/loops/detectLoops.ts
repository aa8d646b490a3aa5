import {
  LOOP_KIND_OF_VARIANT,
  LOOP_VARIANT_CODE,
  type LoopKind,
  type LoopThresholds,
  type LoopVariant,
} from '@telltale/semconv';
import { runawayLimit } from './LoopThresholds.js';

/** One step span of a run, as loop detection sees it. */
export interface LoopStep {
  spanId: string;
  startNs: bigint;
  /** Step kind (`tool`, `plan`, `validate`, …). */
  kind: string;
  /** The tool name for tool steps (the step name when a tool has none). */
  name: string;
  argsHash: string;
  stateHash: string;
  outputHash: string;
  /** Status not ERROR. */
  ok: boolean;
  durationNs: number;
  costUsd: number;
}

/** One loop in one run, with its evidence. */
export interface LoopDetection {
  kind: LoopKind;
  variant: LoopVariant;
  /** Repeats (repeated action, no progress), A→B cycles (ping-pong), or steps in the run (runaway). */
  count: number;
  /** The detection's spans in start order (runaway: the steps beyond the limit). */
  spanIds: string[];
  /** Time and cost of the repeats after the first (ping-pong: after the first cycle; runaway: the steps beyond the limit). */
  wastedNs: number;
  wastedCostUsd: number;
  /** Start of the detection's first span (runaway: of the first step beyond the limit). */
  anchorStartNs: bigint;
  toolName?: string;
  argsHash?: string;
  stateHash?: string;
  outputHash?: string;
  /** Ping-pong: the two alternating tools, in the order they first ran. */
  cycle?: [string, string];
  /** Runaway: the run's limit, max(multiplier × median, hard cap). */
  stepLimit?: number;
}

export interface DetectLoopsContext {
  /** The agent's median steps per completed run; absent or null: the hard cap alone is the runaway limit. */
  agentMedianSteps?: number | null;
}

export function byStartThenSpan(a: LoopStep, b: LoopStep): number {
  if (a.startNs !== b.startNs) return a.startNs < b.startNs ? -1 : 1;
  return a.spanId < b.spanId ? -1 : a.spanId > b.spanId ? 1 : 0;
}

function detection(
  variant: LoopVariant,
  count: number,
  evidence: readonly LoopStep[],
  wasted: readonly LoopStep[],
  extra: Partial<LoopDetection>,
): LoopDetection {
  let wastedNs = 0;
  let wastedCostUsd = 0;
  for (const s of wasted) {
    wastedNs += s.durationNs;
    wastedCostUsd += s.costUsd;
  }
  return {
    kind: LOOP_KIND_OF_VARIANT[variant],
    variant,
    count,
    spanIds: evidence.map((s) => s.spanId),
    wastedNs,
    wastedCostUsd,
    anchorStartNs: evidence[0]!.startNs,
    ...extra,
  };
}

function groupBy(steps: readonly LoopStep[], key: (s: LoopStep) => string): LoopStep[][] {
  const groups = new Map<string, LoopStep[]>();
  for (const s of steps) {
    const k = key(s);
    const list = groups.get(k);
    if (list === undefined) groups.set(k, [s]);
    else list.push(s);
  }
  return [...groups.values()];
}

/** Maximal streaks of consecutive failed validations with one non-empty output hash. */
function failedStreaks(validations: readonly LoopStep[]): LoopStep[][] {
  const streaks: LoopStep[][] = [];
  let streak: LoopStep[] = [];
  for (const v of validations) {
    const failed = !v.ok && v.outputHash !== '';
    if (failed && streak.length > 0 && streak[0]!.outputHash === v.outputHash) streak.push(v);
    else {
      streaks.push(streak);
      streak = failed ? [v] : [];
    }
  }
  streaks.push(streak);
  return streaks;
}

/**
 * Maximal alternations of two tool names: a call continues the alternation
 * when its name equals the name two calls back and differs from the
 * previous one. Returns [first index, length] pairs (length ≥ 3).
 */
function alternations(names: readonly string[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let runStart = -1;
  for (let i = 2; i <= names.length; i++) {
    const continues = i < names.length && names[i] === names[i - 2] && names[i] !== names[i - 1];
    if (continues && runStart < 0) runStart = i;
    if (!continues && runStart >= 0) {
      out.push([runStart - 2, i - runStart + 2]);
      runStart = -1;
    }
  }
  return out;
}

/**
 * Loop detections over one run's steps (RELIABILITY-MATH "Loops and no
 * progress"), the same rules as the SQL in @telltale/store (loopSql.ts), for
 * the queries' evidence and for live detection as spans arrive. Steps may
 * come in any order; they are ordered by start time, then span id.
 *
 * - repeated action: ≥ repeat tool calls with the same (name, args hash);
 *   calls without an args hash never count;
 * - no progress: ≥ repeat plan / validate steps with the same state hash, or
 *   ≥ repeat consecutive failed validations (other validations break the
 *   streak, other steps do not) with the same output hash;
 * - ping-pong: the tool calls in start order alternate between two names
 *   for ≥ 2 × cycles calls; the count is ⌊calls / 2⌋ cycles;
 * - runaway: more steps than max(multiplier × the agent's median, cap).
 *
 * Retries count like any other call. For the first three rules a span seen
 * twice (same start and id) counts once.
 */
export function detectLoops(
  steps: readonly LoopStep[],
  t: LoopThresholds,
  context: DetectLoopsContext = {},
): LoopDetection[] {
  const all = steps.filter((s) => s.kind !== '' && s.kind !== 'run').sort(byStartThenSpan);
  const sorted = all.filter((s, i) => i === 0 || s.startNs !== all[i - 1]!.startNs || s.spanId !== all[i - 1]!.spanId);
  const out: LoopDetection[] = [];
  const tools = sorted.filter((s) => s.kind === 'tool');

  for (const same of groupBy(
    tools.filter((s) => s.argsHash !== ''),
    (s) => `${s.name}\u0000${s.argsHash}`,
  )) {
    if (same.length >= t.repeat)
      out.push(
        detection('tool_args', same.length, same, same.slice(1), {
          toolName: same[0]!.name,
          argsHash: same[0]!.argsHash,
        }),
      );
  }
  const stated = sorted.filter((s) => (s.kind === 'plan' || s.kind === 'validate') && s.stateHash !== '');
  for (const same of groupBy(stated, (s) => s.stateHash)) {
    if (same.length >= t.repeat)
      out.push(detection('state_hash', same.length, same, same.slice(1), { stateHash: same[0]!.stateHash }));
  }
  for (const streak of failedStreaks(sorted.filter((s) => s.kind === 'validate'))) {
    if (streak.length >= t.repeat)
      out.push(
        detection('failed_validation', streak.length, streak, streak.slice(1), { outputHash: streak[0]!.outputHash }),
      );
  }
  for (const [start, length] of alternations(tools.map((s) => s.name))) {
    const cycles = Math.floor(length / 2);
    if (cycles < t.pingPongCycles) continue;
    const alt = tools.slice(start, start + length);
    out.push(detection('alternation', cycles, alt, alt.slice(2), { cycle: [alt[0]!.name, alt[1]!.name] }));
  }
  const limit = runawayLimit(t, context.agentMedianSteps);
  if (all.length > limit) {
    const beyond = all.slice(Math.floor(limit));
    out.push(detection('step_count', all.length, beyond, beyond, { stepLimit: limit }));
  }
  return out.sort(
    (a, b) =>
      LOOP_VARIANT_CODE[a.variant] - LOOP_VARIANT_CODE[b.variant] ||
      (a.anchorStartNs < b.anchorStartNs ? -1 : a.anchorStartNs > b.anchorStartNs ? 1 : 0),
  );
}
