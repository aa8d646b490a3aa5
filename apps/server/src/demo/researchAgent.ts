import type { DemoAgent } from './AgentEnv.js';
import { DEMO_MODELS } from './demoModels.js';
import { SimulatedFailure } from './SimulatedFailure.js';

const SUBJECTS = [
  'battery recycling',
  'EU AI Act',
  'vector databases',
  'heat pumps',
  'LLM evals',
  'solid-state drives',
] as const;

const PLAN_PROMPT = 'You plan web research. Answer with three to six search queries, one per line.';
const SYNTHESIZE_PROMPT = 'Answer the question from the sources given, citing a source for every claim as [n].';

/**
 * (b) A tool-heavy research agent: a planner model, 3–6 web searches that hit
 * rate limits (retried with backoff; some runs fall into a rate-limit burst
 * where retries run out), page fetches that time out (a failed fetch is
 * skipped: the run can still succeed), a synthesis model and a citation check.
 */
export const researchAgent: DemoAgent = {
  runName: 'research-question',
  service: 'research-assistant',
  weight: 0.25,
  run: async (env) => {
    const { tt } = env;
    const subject = env.rng.pick(SUBJECTS);
    const rateLimitRate = env.chance(0.1) ? 0.7 : 0.18;
    const sonnet = DEMO_MODELS.claudeSonnet4;

    const queries = await tt.plan(
      'plan',
      () =>
        tt.llm('plan-queries', { model: sonnet.id, provider: sonnet.provider }, async (step) => {
          env.prompt(step, PLAN_PROMPT, `Question: what should a newcomer know about ${subject}?`);
          await env.callModel(step, sonnet, {
            inputTokens: env.rng.int(900, 1_400),
            outputTokens: env.rng.int(120, 260),
            cachedInputTokens: 0,
          });
          const planned = Array.from(
            { length: env.rng.int(3, 6) },
            (_, i) => `${subject} ${['overview', 'statistics', 'criticism', 'history', 'outlook', 'costs'][i]}`,
          );
          env.answer(step, planned.join('\n'));
          return planned;
        }),
      { state: { subject } },
    );

    const urls: string[] = [];
    for (const query of queries) {
      const hits = await tt.tool(
        'web_search',
        { query, num_results: 8 },
        async (args) => {
          if (env.chance(rateLimitRate))
            await env.fail('rate_limit_exceeded', 'search API: 429 Too Many Requests', 120);
          await env.work(650, { tailChance: 0.02, tailFactor: 6 });
          return Array.from(
            { length: args.num_results },
            (_, i) => `https://example.org/${encodeURIComponent(args.query)}/${i}`,
          );
        },
        { retry: env.retryTransient(4, 800) },
      );
      urls.push(...hits.slice(0, 1));
    }

    let pages = 0;
    for (const url of urls.slice(0, env.rng.int(2, 4))) {
      try {
        await tt.tool(
          'fetch_page',
          { url },
          async () => {
            if (env.chance(0.08)) await env.fail('ETIMEDOUT', `GET ${url}: timed out after 10000 ms`, 10_000);
            await env.work(900, { sigma: 0.6 });
            return `<html><head><title>${url}</title></head><body>…</body></html>`;
          },
          { retry: env.retryTransient(2, 500) },
        );
        pages++;
      } catch (err) {
        if (!(err instanceof SimulatedFailure)) throw err; // a failed fetch is skipped
      }
    }
    if (pages === 0) throw new SimulatedFailure('no_sources', 'every page fetch failed');

    const synthesize = (): Promise<void> =>
      tt.llm('synthesize', { model: sonnet.id, provider: sonnet.provider }, async (step) => {
        env.prompt(
          step,
          SYNTHESIZE_PROMPT,
          `Question: what should a newcomer know about ${subject}?\nSources: ${urls.join(' ')}`,
        );
        if (env.chance(0.02)) await env.fail('overloaded_error', 'anthropic: overloaded', 900);
        const inputTokens = env.rng.int(6_000, 18_000);
        await env.callModel(step, sonnet, {
          inputTokens,
          outputTokens: env.rng.int(500, 1_400),
          cachedInputTokens: env.chance(0.5) ? 4_096 : 0,
        });
        env.answer(
          step,
          `${subject}, in brief: what it is, where it stands today, and the open questions [1]–[${pages}].`,
        );
      });
    const citeCheck = (): Promise<void> =>
      tt.validate('cite-check', async (step) => {
        await env.work(150);
        const verdict = env.chance(0.08) ? { ok: false, missing: 'citation for claim 3' } : { ok: true };
        step.setOutputHash(verdict);
        if (!verdict.ok) await env.fail('uncited_claim', 'answer has an uncited claim', 5);
      });

    await synthesize();
    try {
      await citeCheck();
    } catch {
      // One repair round: re-synthesize and check again; a second failure fails the run.
      await synthesize();
      await citeCheck();
    }
  },
};
