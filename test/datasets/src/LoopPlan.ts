import type { AgentSpec, LoopThresholds, RepeatSpec, StepNode, StepSpec } from './DatasetSpec.js';
import type { LoopKind, LoopVariant } from './DatasetTruth.js';
import type { Prng } from './Prng.js';

/**
 * How an injected loop shapes a run. It applies to the agent's first
 * top-level repeat: iterations are fixed, chosen tool calls and plan state
 * hashes are overridden, and every group succeeds at its first attempt (the
 * run is "forced") except the validate attempts of a failed-validation loop.
 */
export interface LoopPlan {
  kind: LoopKind;
  variant: LoopVariant;
  /** Iterations of the loop repeat; for runaway, iterate while the run has ≤ untilSteps steps. */
  iterations: number;
  untilSteps: number | undefined;
  /** Forced tool calls by iteration; `evidence` marks the calls that form the loop. */
  toolAt: Map<number, { name: string; argsHash: string; evidence: boolean }>;
  stateAt: Map<number, string>;
  validation: { step: string; attempts: number; outputHash: string } | undefined;
  /** Indexes (in the run's span list) of the evidence spans, filled while the run is built. */
  evidence: number[];
}

function loopShape(agent: AgentSpec): { repeat: RepeatSpec; tools: readonly string[] } {
  const repeat = agent.steps.find((n): n is RepeatSpec => n.type === 'repeat');
  const findTool = (nodes: readonly StepNode[]): StepSpec | undefined => {
    for (const n of nodes) {
      if (n.type !== 'step') continue;
      if (n.kind === 'tool' && (n.rotate?.length ?? 0) >= 3) return n;
      const inner = findTool(n.children ?? []);
      if (inner !== undefined) return inner;
    }
    return undefined;
  };
  const tool = repeat === undefined ? undefined : findTool(repeat.body);
  const hasPlan = repeat?.body.some((n) => n.type === 'step' && n.kind === 'plan') ?? false;
  if (repeat === undefined || tool?.rotate === undefined || !hasPlan) {
    throw new Error(
      `agent ${agent.name}: loop injection needs a top-level repeat whose body has a plan step and a tool step rotating ≥ 3 tools`,
    );
  }
  return { repeat, tools: tool.rotate };
}

/** Draws whether (and which) loop a run of this agent gets. */
export function planLoop(agent: AgentSpec, rng: Prng, t: LoopThresholds): LoopPlan | undefined {
  const loops = agent.loops;
  if (loops === undefined) return undefined;
  const r = loops.rates;
  const x = rng.next();
  const kinds: Array<[number, LoopVariant]> = [
    [r.repeatedAction, 'tool_args'],
    [r.pingPong, 'alternation'],
    [r.noProgressState, 'state_hash'],
    [r.noProgressValidation, 'failed_validation'],
    [r.runaway, 'step_count'],
  ];
  let acc = 0;
  let variant: LoopVariant | undefined;
  for (const [rate, v] of kinds) {
    acc += rate;
    if (variant === undefined && x < acc) variant = v;
  }
  if (variant === undefined) return undefined;
  const { repeat, tools } = loopShape(agent);
  const [a, b, c] = tools as [string, string, string];
  const plan: LoopPlan = {
    kind: 'repeated_action',
    variant,
    iterations: rng.int(repeat.min, repeat.max),
    untilSteps: undefined,
    toolAt: new Map(),
    stateAt: new Map(),
    validation: undefined,
    evidence: [],
  };
  const start = rng.int(1, 2);
  switch (variant) {
    case 'tool_args': {
      const k = t.repeatThreshold + rng.int(0, 1);
      const tool = { name: tools[start % tools.length]!, argsHash: rng.hex(16), evidence: true };
      for (let i = start; i < start + k; i++) plan.toolAt.set(i, tool);
      plan.iterations = start + k + rng.int(1, 2);
      return plan;
    }
    case 'alternation': {
      const cycles = t.pingPongCycles + rng.int(0, 1);
      // Framed by the third tool so the alternation is exactly 2·cycles calls long.
      plan.toolAt.set(start - 1, { name: c, argsHash: rng.hex(16), evidence: false });
      for (let i = 0; i < 2 * cycles; i++)
        plan.toolAt.set(start + i, { name: i % 2 === 0 ? a : b, argsHash: rng.hex(16), evidence: true });
      plan.toolAt.set(start + 2 * cycles, { name: c, argsHash: rng.hex(16), evidence: false });
      plan.iterations = start + 2 * cycles + 1 + rng.int(0, 1);
      return { ...plan, kind: 'ping_pong' };
    }
    case 'state_hash': {
      const k = t.repeatThreshold + rng.int(0, 1);
      const hash = rng.hex(16);
      for (let i = start; i < start + k; i++) plan.stateAt.set(i, hash);
      plan.iterations = start + k + rng.int(0, 2);
      return { ...plan, kind: 'no_progress' };
    }
    case 'failed_validation':
      plan.validation = {
        step: loops.validateStep,
        attempts: t.repeatThreshold + rng.int(0, 1),
        outputHash: rng.hex(16),
      };
      return { ...plan, kind: 'no_progress' };
    case 'step_count':
      plan.untilSteps = t.runawayHardCap + rng.int(0, 12);
      return { ...plan, kind: 'runaway' };
  }
}
