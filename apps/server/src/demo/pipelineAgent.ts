import type { DemoAgent } from './AgentEnv.js';
import { DEMO_MODELS } from './demoModels.js';

const TOPICS = ['refund', 'login issue', 'shipping delay', 'invoice copy', 'plan upgrade', 'data export'] as const;

const DRAFT_PROMPT =
  'You draft replies to support tickets from the help articles given. Be brief and friendly, and never promise a refund without approval.';

/** A support conversation holds this agent's runs among this many consecutive runs of the fleet (about five). */
const RUNS_PER_CONVERSATION = 15;

/**
 * (a) The classic six-step pipeline, each step ≈ 97% eventually successful:
 * plan → search_kb (tool, retried) → draft-reply (llm) → lookup_customer
 * (tool) → policy-check (validate) → send-reply (act, side effect).
 * Any step that finally fails fails the run: 0.97^6 ≈ 83% end to end.
 */
export const pipelineAgent: DemoAgent = {
  runName: 'triage-ticket',
  service: 'support-bot',
  weight: 0.35,
  sessionOf: (runIndex) => `support-chat-${Math.floor(runIndex / RUNS_PER_CONVERSATION) + 1}`,
  run: async (env) => {
    const { tt } = env;
    const ticket = {
      id: env.rng.int(10_000, 99_999),
      topic: env.rng.pick(TOPICS),
      tier: env.rng.pick(['free', 'pro', 'enterprise']),
    };

    const plan = await tt.plan(
      'plan',
      async () => {
        await env.work(40);
        if (env.chance(0.02)) await env.fail('unparseable_ticket', 'ticket body could not be parsed', 30);
        return ['search', 'draft', 'lookup', 'check', 'send'];
      },
      { state: ticket },
    );

    const docs = await tt.tool(
      'search_kb',
      { query: ticket.topic, top_k: 5 },
      async (args) => {
        await env.work(320, { tailChance: 0.02, tailFactor: 12 });
        if (env.chance(0.14)) await env.fail('ETIMEDOUT', 'search_kb: no response within 5000 ms', 5000);
        return Array.from({ length: args.top_k }, (_, i) => `kb-${ticket.topic}-${i}`);
      },
      { retry: env.retryTransient(2) },
    );

    const draft = await tt.llm(
      'draft-reply',
      { model: DEMO_MODELS.gpt4oMini.id, provider: DEMO_MODELS.gpt4oMini.provider },
      async (step) => {
        // the customer's address is in the prompt: the SDK's redactors replace it before it is sent
        env.prompt(
          step,
          DRAFT_PROMPT,
          `Ticket #${ticket.id} from customer${ticket.id}@example.com (${ticket.tier} plan) about a ${ticket.topic}. Articles: ${docs.join(', ')}.`,
        );
        if (env.chance(0.03)) await env.fail('context_length_exceeded', 'prompt exceeds the context window', 250);
        const inputTokens = env.rng.int(1_800, 3_600);
        await env.callModel(step, DEMO_MODELS.gpt4oMini, {
          inputTokens,
          outputTokens: env.rng.int(150, 450),
          cachedInputTokens: env.chance(0.6) ? 1_024 : 0,
        });
        env.answer(
          step,
          `Hello, thank you for writing to us about your ${ticket.topic}. Here is what to do next, step by step, from our ${docs.length} help articles.`,
        );
        return `Re: ${ticket.topic} (${plan.length} steps, ${docs.length} sources)`;
      },
    );

    await tt.tool('lookup_customer', { ticket_id: ticket.id }, async () => {
      await env.work(90, { tailChance: 0.01, tailFactor: 20 });
      if (env.chance(0.04)) await env.fail('ECONNRESET', 'crm: connection reset by peer', 120);
      return { tier: ticket.tier };
    });

    await tt.validate('policy-check', async (step) => {
      await env.work(60);
      const verdict = env.chance(0.03) ? { ok: false, rule: 'no-refund-promises' } : { ok: true };
      step.setOutputHash(verdict);
      if (!verdict.ok) await env.fail('policy_violation', 'draft promises a refund without approval', 5);
    });

    await tt.act(
      'send-reply',
      async () => {
        await env.work(180);
        if (env.chance(0.02)) await env.fail('http_502', 'helpdesk API returned 502', 400);
        return draft.length;
      },
      { sideEffect: true },
    );
  },
};
