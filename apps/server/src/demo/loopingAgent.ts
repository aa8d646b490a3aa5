import type { DemoAgent } from './AgentEnv.js';
import { DEMO_MODELS } from './demoModels.js';
import { SimulatedFailure } from './SimulatedFailure.js';

const SERVICES = ['payments', 'search', 'checkout', 'notifications'] as const;

const SYSTEM_PROMPT =
  'You are an on-call assistant. From the incident state, choose the one metric to check next and the time window to read it over.';

/**
 * (c) An incident agent that sometimes loops: plan (with a reasoning model) →
 * check_metrics → is-resolved, until resolved. Healthy runs look at new
 * evidence each round (different tool arguments, changing state). About one
 * run in five gets stuck: the same state, the same tool call with the same
 * arguments and the same failed validation, round after round — most hit the
 * iteration cap and fail, a few break out late (a successful but wasteful run).
 * Each round's is-resolved is the next attempt of the same check, so a run
 * resolved in its third round recovered that step, and a stuck run's step
 * never succeeded.
 */
export const loopingAgent: DemoAgent = {
  runName: 'resolve-incident',
  service: 'ops-copilot',
  weight: 0.2,
  run: async (env) => {
    const { tt } = env;
    const service = env.rng.pick(SERVICES);
    const stuck = env.chance(0.2);
    const maxRounds = 8;
    const breakOutAt = stuck && env.chance(0.3) ? env.rng.int(4, 6) : Number.POSITIVE_INFINITY;
    const model = DEMO_MODELS.gpt4o;

    for (let round = 1; round <= maxRounds; round++) {
      const state = stuck
        ? { service, status: 'degraded', evidence: 'p99 latency high' }
        : { service, status: 'degraded', round };
      const args = stuck
        ? { service, metric: 'latency_p99', window: '15m' }
        : { service, metric: 'latency_p99', window: `${15 * round}m` };
      await tt.plan(
        'plan-next-action',
        () =>
          tt.llm('reason', { model: model.id, provider: model.provider }, async (step) => {
            env.prompt(step, SYSTEM_PROMPT, `Incident state: ${JSON.stringify(state)}. What do we check next?`);
            await env.callModel(step, model, {
              inputTokens: env.rng.int(2_500, 4_000) + round * 300,
              outputTokens: env.rng.int(150, 400),
              cachedInputTokens: round > 1 ? 2_048 : 0,
            });
            env.answer(step, `Check ${args.metric} of ${service} over the last ${args.window}.`);
          }),
        { state },
      );
      const reading = await tt.tool('check_metrics', args, async () => {
        await env.work(240);
        return stuck && round < breakOutAt ? 'degraded' : 'ok';
      });
      try {
        await tt.validate(
          'is-resolved',
          async (step) => {
            await env.work(30);
            const resolved = stuck ? reading === 'ok' : env.chance(0.75);
            const verdict = { resolved, evidence: args };
            step.setOutputHash(verdict);
            step.recordOutput(verdict);
            if (!resolved) await env.fail('not_resolved', `${service} still degraded`, 5);
            // each round checks the resolution again: attempts of one check, not a new step every round
          },
          { attempt: round },
        );
        return;
      } catch (err) {
        if (!(err instanceof SimulatedFailure)) throw err; // not resolved yet: next round
      }
    }
    throw new SimulatedFailure('max_iterations', `gave up after ${maxRounds} rounds`);
  },
};
