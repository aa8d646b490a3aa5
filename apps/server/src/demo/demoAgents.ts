import type { DemoAgent } from './AgentEnv.js';
import { loopingAgent } from './loopingAgent.js';
import { pipelineAgent } from './pipelineAgent.js';
import { researchAgent } from './researchAgent.js';
import { sideEffectAgent } from './sideEffectAgent.js';

/** The simulated fleet, with each agent's share of the runs. */
export const DEMO_AGENTS: readonly DemoAgent[] = [pipelineAgent, researchAgent, loopingAgent, sideEffectAgent];

/** Picks an agent by weight from a uniform draw in [0, 1). */
export function pickAgent(draw: number): DemoAgent {
  const total = DEMO_AGENTS.reduce((sum, a) => sum + a.weight, 0);
  let acc = 0;
  for (const agent of DEMO_AGENTS) {
    acc += agent.weight / total;
    if (draw < acc) return agent;
  }
  return pipelineAgent;
}
