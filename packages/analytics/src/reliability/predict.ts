import type { StoreRows } from '@telltale/store';
import { clamp01, NO_ESTIMATE, Z95, type Estimate } from '../stats/Interval.js';

/** p(s) and its sampling variance on the log scale, per step name (pooled over agents). */
export interface StepSuccess {
  stepName: string;
  groups: number;
  anyOk: number;
  /** Eventual success rate p(s). */
  p: number;
  /** Var(log p̂) by the delta method, with a half-count continuity correction so p̂ = 1 keeps a width. */
  varLogP: number;
}

export interface AgentPrediction {
  agent: string;
  service: string;
  /** Completed runs (success + failure): the agent's weight across agents. */
  runs: number;
  predicted: Estimate;
  /** k(s): mean attempt groups of each step per successful run (all runs when none succeeded). */
  groupsPerRun: Record<string, number>;
}

export interface Prediction {
  predicted: Estimate;
  agents: AgentPrediction[];
  steps: StepSuccess[];
}

export function stepSuccessRates(stats: readonly StoreRows.StepGroupStats[]): StepSuccess[] {
  const pooled = new Map<string, { groups: number; anyOk: number }>();
  for (const s of stats) {
    const acc = pooled.get(s.stepName) ?? { groups: 0, anyOk: 0 };
    acc.groups += s.groups;
    acc.anyOk += s.anyOk;
    pooled.set(s.stepName, acc);
  }
  return [...pooled].map(([stepName, { groups, anyOk }]) => {
    const smoothed = (anyOk + 0.5) / (groups + 1);
    return {
      stepName,
      groups,
      anyOk,
      p: groups === 0 ? 0 : anyOk / groups,
      varLogP: (1 - smoothed) / (groups * smoothed),
    };
  });
}

const agentKey = (agent: string, service: string): string => `${service}\u0000${agent}`;

/**
 * Predicted end-to-end success under independence (RELIABILITY-MATH.md):
 * P_agent = Π_s p(s)^k(s); across agents the run-weighted mean. The interval
 * is the delta method on log p(s), steps independent; a step shared by
 * several agents moves all of them together, which the gradient accounts for.
 * `overrides` replaces p(s) for what-if questions.
 */
export function predictEndToEnd(
  stepStats: readonly StoreRows.StepGroupStats[],
  agentStats: readonly StoreRows.AgentRunStats[],
  overrides: ReadonlyMap<string, number> = new Map(),
): Prediction {
  const steps = stepSuccessRates(stepStats);
  const stepByName = new Map(steps.map((s) => [s.stepName, s]));
  const pOf = (name: string): number => overrides.get(name) ?? stepByName.get(name)?.p ?? 1;

  const statsByAgent = new Map<string, StoreRows.StepGroupStats[]>();
  for (const s of stepStats) {
    const key = agentKey(s.agent, s.service);
    statsByAgent.set(key, [...(statsByAgent.get(key) ?? []), s]);
  }

  const agents: AgentPrediction[] = [];
  const gradient = new Map<string, number>(); // ∂P/∂log p(s), before dividing by total weight
  let weighted = 0;
  let totalRuns = 0;
  for (const a of agentStats) {
    const runs = a.success + a.failure;
    if (runs === 0) continue;
    const perRunBase = a.success > 0 ? a.success : runs;
    const groupsPerRun: Record<string, number> = {};
    let logP = 0;
    let varLogP = 0;
    for (const s of statsByAgent.get(agentKey(a.agent, a.service)) ?? []) {
      const k = (a.success > 0 ? s.groupsInSuccessfulRuns : s.groups) / perRunBase;
      if (k === 0) continue;
      groupsPerRun[s.stepName] = k;
      const p = pOf(s.stepName);
      logP += p > 0 ? k * Math.log(p) : -Infinity;
      if (!overrides.has(s.stepName)) varLogP += k * k * (stepByName.get(s.stepName)?.varLogP ?? 0);
    }
    const value = Math.exp(logP);
    const sd = Math.sqrt(varLogP);
    agents.push({
      agent: a.agent,
      service: a.service,
      runs,
      predicted: { value, low: clamp01(Math.exp(logP - Z95 * sd)), high: clamp01(Math.exp(logP + Z95 * sd)), n: runs },
      groupsPerRun,
    });
    weighted += runs * value;
    totalRuns += runs;
    for (const [name, k] of Object.entries(groupsPerRun)) {
      if (!overrides.has(name)) gradient.set(name, (gradient.get(name) ?? 0) + runs * value * k);
    }
  }
  if (totalRuns === 0) return { predicted: NO_ESTIMATE, agents, steps };

  const value = weighted / totalRuns;
  let variance = 0;
  for (const [name, g] of gradient) variance += (g / totalRuns) ** 2 * (stepByName.get(name)?.varLogP ?? 0);
  const sdLog = value > 0 ? Math.sqrt(variance) / value : 0;
  const predicted: Estimate =
    value > 0
      ? {
          value,
          low: clamp01(value * Math.exp(-Z95 * sdLog)),
          high: clamp01(value * Math.exp(Z95 * sdLog)),
          n: totalRuns,
        }
      : { value: 0, low: 0, high: 0, n: totalRuns };
  return { predicted, agents, steps };
}
