import { describe, expect, it } from 'vitest';
import type { AgentSpec } from './DatasetSpec.js';
import { PIPELINE_EVENTUAL_SUCCESS, pipelineAgent } from './agents/pipelineAgent.js';
import { checkoutAgent } from './agents/checkoutAgent.js';
import { legacyAgent } from './agents/legacyAgent.js';
import { supportAgent } from './agents/supportAgent.js';
import { triageAgent } from './agents/triageAgent.js';
import { analyticPrediction } from './analyticPrediction.js';
import { generateDataset } from './generateDataset.js';
import { smallDataset } from './smallDataset.js';
import { tailAttribution } from './tailAttribution.js';

const END = 1_900_000_000_000_000_000n;

/** |observed − p| within 4.5 binomial standard errors. */
function near(successes: number, n: number, p: number): boolean {
  const se = Math.sqrt((p * (1 - p)) / n);
  return Math.abs(successes / n - p) <= 4.5 * Math.max(se, 1 / n);
}

function only(agent: AgentSpec, runs: number, seed = 11): ReturnType<typeof generateDataset> {
  return generateDataset({ ...smallDataset({ endNs: END, seed }), runs, agents: [{ ...agent, weight: 1 }] });
}

describe('the six-step pipeline', () => {
  const { spans, truth } = only(pipelineAgent(), 20_000);
  const agent = truth.agents[0]!;

  it('predicts Π p = 0.98·0.95·0.97·0.96·0.97·0.98 = 0.8241 (k = 1 for every step)', () => {
    const product = PIPELINE_EVENTUAL_SUCCESS.reduce((a, b) => a * b, 1);
    expect(product).toBeCloseTo(0.8241, 4);
    expect(agent.predictedTrueMethod).toBe('analytic');
    expect(agent.predictedTrue).toBeCloseTo(product, 12);
    expect(agent.trueSuccessProbability).toBeCloseTo(product, 12);
    expect(near(agent.success, agent.success + agent.failure, product)).toBe(true);
    expect(Math.abs(agent.predictedRealized - product)).toBeLessThan(0.01);
  });

  it('realises each step’s eventual, first-attempt and recovery rates near the generating ones', () => {
    const names = ['outline', 'search-docs', 'draft', 'web.fetch', 'fact-check', 'publish'];
    names.forEach((name, i) => {
      const s = truth.steps.find((x) => x.stepName === name)!;
      expect(s.generating.eventualSuccess).toBeCloseTo(PIPELINE_EVENTUAL_SUCCESS[i]!, 12);
      expect(near(s.anyOk, s.groups, s.generating.eventualSuccess), `${name} p`).toBe(true);
      expect(near(s.firstOk, s.groups, s.generating.firstAttemptSuccess), `${name} f`).toBe(true);
      expect(near(s.recovered, s.failedFirst, s.generating.recovery), `${name} r`).toBe(true);
      expect(s.groupsInSuccessfulRuns).toBe(agent.success);
    });
    expect(truth.steps.find((x) => x.stepName === 'cms.post')!.generating.eventualSuccess).toBe(1);
  });

  it('has web.fetch as the tail driver of the run-duration p99', () => {
    const tail = tailAttribution(spans);
    expect(agent.tailDriver).toBe('web.fetch');
    expect(tail.driver).toBe('web.fetch');
    expect(tail.tailRuns).toBeGreaterThanOrEqual(100);
  });
});

describe('analytic agents behave as their generating model says', () => {
  for (const make of [triageAgent, supportAgent, legacyAgent, checkoutAgent]) {
    const spec = make();
    it(`${spec.name}: run success and per-step rates`, () => {
      const { truth } = only(spec, 8_000, 5);
      const a = truth.agents[0]!;
      const analytic = analyticPrediction(spec)!;
      expect(a.predictedTrueMethod).toBe('analytic');
      expect(
        near(a.success, a.success + a.failure, analytic.successProbability),
        `${a.success}/${a.success + a.failure} vs ${analytic.successProbability}`,
      ).toBe(true);
      for (const s of truth.steps.filter((x) => x.groups > 0)) {
        expect(near(s.anyOk, s.groups, s.generating.eventualSuccess), `${s.stepName} p`).toBe(true);
        expect(near(s.firstOk, s.groups, s.generating.firstAttemptSuccess), `${s.stepName} f`).toBe(true);
        const k = analytic.expectedK.get(s.stepName);
        if (k !== undefined) {
          const se = Math.sqrt(Math.max(k * (1 - k), 1e-4) / a.success);
          expect(Math.abs(s.groupsInSuccessfulRuns / a.success - k), `${s.stepName} k`).toBeLessThanOrEqual(4.5 * se);
        }
      }
      expect(Math.abs(a.predictedRealized - a.predictedTrue)).toBeLessThan(0.02);
    });
  }
});
