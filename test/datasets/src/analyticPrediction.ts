import type { AgentSpec, StepNode } from './DatasetSpec.js';
import { agentStepNames, stepProbabilities } from './stepProbabilities.js';

/**
 * For a fragment of a run: A = P(every group succeeds); B(s) = E[groups of s ·
 * 1{every group succeeds}]; C(s) = E[groups of s up to and including the
 * first failed group · 1{some group fails}] (a run stops at its first failed
 * group).
 */
interface Fragment {
  a: number;
  b: Map<string, number>;
  c: Map<string, number>;
}

const EMPTY: Fragment = { a: 1, b: new Map(), c: new Map() };

function concat(x: Fragment, y: Fragment): Fragment {
  const names = new Set([...x.b.keys(), ...x.c.keys(), ...y.b.keys(), ...y.c.keys()]);
  const b = new Map<string, number>();
  const c = new Map<string, number>();
  for (const s of names) {
    const xb = x.b.get(s) ?? 0;
    b.set(s, xb * y.a + x.a * (y.b.get(s) ?? 0));
    c.set(s, (x.c.get(s) ?? 0) + xb * (1 - y.a) + x.a * (y.c.get(s) ?? 0));
  }
  return { a: x.a * y.a, b, c };
}

function mixture(parts: ReadonlyArray<{ weight: number; fragment: Fragment }>): Fragment {
  let total = 0;
  for (const p of parts) total += p.weight;
  const b = new Map<string, number>();
  const c = new Map<string, number>();
  let a = 0;
  for (const { weight, fragment } of parts) {
    const w = weight / total;
    a += w * fragment.a;
    for (const [s, v] of fragment.b) b.set(s, (b.get(s) ?? 0) + w * v);
    for (const [s, v] of fragment.c) c.set(s, (c.get(s) ?? 0) + w * v);
  }
  return { a, b, c };
}

function sequence(nodes: readonly StepNode[], iteration: number): Fragment {
  let f = EMPTY;
  for (const n of nodes) f = concat(f, node(n, iteration));
  return f;
}

function node(n: StepNode, iteration: number): Fragment {
  switch (n.type) {
    case 'step': {
      const name = n.rotate === undefined ? n.name : n.rotate[iteration % n.rotate.length]!;
      const p = stepProbabilities(n).eventualSuccess;
      const group: Fragment = { a: p, b: new Map([[name, p]]), c: new Map([[name, 1 - p]]) };
      const q = n.include ?? 1;
      return q === 1
        ? group
        : mixture([
            { weight: q, fragment: group },
            { weight: 1 - q, fragment: EMPTY },
          ]);
    }
    case 'branch':
      return mixture(n.paths.map((p) => ({ weight: p.weight, fragment: sequence(p.steps, iteration) })));
    case 'repeat': {
      const parts: Array<{ weight: number; fragment: Fragment }> = [];
      let f = EMPTY;
      for (let i = 0; i <= n.max; i++) {
        if (i >= n.min) parts.push({ weight: 1, fragment: f });
        f = concat(f, sequence(n.body, i));
      }
      return mixture(parts);
    }
  }
}

export interface AnalyticPrediction {
  /** P(run succeeds) under the generating model. */
  successProbability: number;
  /** Expected attempt groups of each step per successful run. */
  expectedK: Map<string, number>;
  /** Π p(s)^k(s) with the expected k. */
  predicted: number;
}

/**
 * The independence-model prediction from the generating probabilities, with
 * k(s) = E[groups of s · 1{success}] / P(success). Success: every group
 * succeeds and no seam failure, or a group fails and the agent falls back.
 * Undefined when the agent is not analytic (injected loops, or a nested step
 * that can fail — its groups' count depends on its parent's retries).
 */
export function analyticPrediction(agent: AgentSpec): AnalyticPrediction | undefined {
  if (agent.loops !== undefined) return undefined;
  const names = agentStepNames(agent);
  for (const { step, nested } of names.values())
    if (nested && stepProbabilities(step).eventualSuccess < 1) return undefined;
  const run = sequence(agent.steps, 0);
  const sigma = agent.seamFailureRate;
  const phi = agent.fallbackRate;
  const success = (1 - sigma) * run.a + phi * (1 - run.a);
  const expectedK = new Map<string, number>();
  let predicted = 1;
  for (const [s, b] of run.b) {
    const k = ((1 - sigma) * b + phi * (run.c.get(s) ?? 0)) / success;
    expectedK.set(s, k);
    predicted *= stepProbabilities(names.get(s)!.step).eventualSuccess ** k;
  }
  return { successProbability: success, expectedK, predicted };
}
