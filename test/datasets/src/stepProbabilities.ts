import type { AgentSpec, StepNode, StepSpec } from './DatasetSpec.js';

/** The generating probabilities of one step, its children's failures folded in. */
export interface StepProbabilities {
  firstAttemptSuccess: number;
  retrySuccess: number;
  maxAttempts: number;
  eventualSuccess: number;
  recovery: number;
}

/** Probability that every attempt group inside a node eventually succeeds. */
export function nodeOkProbability(node: StepNode): number {
  switch (node.type) {
    case 'step': {
      const q = node.include ?? 1;
      return 1 - q + q * stepProbabilities(node).eventualSuccess;
    }
    case 'branch': {
      let total = 0;
      let ok = 0;
      for (const path of node.paths) {
        total += path.weight;
        ok += path.weight * sequenceOkProbability(path.steps);
      }
      return ok / total;
    }
    case 'repeat': {
      const body = sequenceOkProbability(node.body);
      let sum = 0;
      for (let c = node.min; c <= node.max; c++) sum += body ** c;
      return sum / (node.max - node.min + 1);
    }
  }
}

export function sequenceOkProbability(nodes: readonly StepNode[]): number {
  let p = 1;
  for (const n of nodes) p *= nodeOkProbability(n);
  return p;
}

/**
 * An attempt succeeds when its children's groups all succeed and its own draw
 * does, so the effective per-attempt probabilities are the step's own times
 * the children's; then p = 1 − (1 − f)(1 − r)^(m−1) and the group recovery
 * rate is 1 − (1 − r)^(m−1).
 */
export function stepProbabilities(step: StepSpec): StepProbabilities {
  const children = sequenceOkProbability(step.children ?? []);
  const f = step.firstAttemptSuccess * children;
  const r = step.retrySuccess * children;
  const m = step.maxAttempts;
  const recovery = 1 - (1 - r) ** (m - 1);
  return {
    firstAttemptSuccess: f,
    retrySuccess: r,
    maxAttempts: m,
    eventualSuccess: 1 - (1 - f) * (1 - recovery),
    recovery,
  };
}

/** Every step name an agent can produce (rotated tool names included), with its spec and nesting depth. */
export function agentStepNames(agent: AgentSpec): Map<string, { step: StepSpec; nested: boolean }> {
  const out = new Map<string, { step: StepSpec; nested: boolean }>();
  const visit = (nodes: readonly StepNode[], nested: boolean): void => {
    for (const node of nodes) {
      if (node.type === 'branch') for (const path of node.paths) visit(path.steps, nested);
      else if (node.type === 'repeat') visit(node.body, nested);
      else {
        for (const name of node.rotate ?? [node.name]) out.set(name, { step: node, nested });
        visit(node.children ?? [], true);
      }
    }
  };
  visit(agent.steps, false);
  return out;
}
