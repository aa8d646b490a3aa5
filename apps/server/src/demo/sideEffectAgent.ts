import type { DemoAgent } from './AgentEnv.js';
import { DEMO_MODELS } from './demoModels.js';

/**
 * (d) A refund agent with side effects that sometimes fails after committing:
 * the refund is issued and the customer e-mailed, then the ledger update
 * fails (≈ 6%) — a partial execution someone must reconcile by hand.
 */
export const sideEffectAgent: DemoAgent = {
  runName: 'process-refund',
  service: 'billing-ops',
  weight: 0.2,
  run: async (env) => {
    const { tt } = env;
    const order = { order_id: `ord_${env.rng.int(100_000, 999_999)}`, amount_cents: env.rng.int(500, 25_000) };
    const haiku = DEMO_MODELS.claudeHaiku;

    await tt.plan('plan', () => env.work(25), { state: order });
    await tt.tool(
      'lookup_order',
      { order_id: order.order_id },
      async () => {
        await env.work(110);
        if (env.chance(0.08)) await env.fail('http_503', 'orders API: 503 Service Unavailable', 60);
      },
      { retry: env.retryTransient(3, 250) },
    );
    await tt.llm('decide-refund', { model: haiku.id, provider: haiku.provider }, async (step) => {
      const amount = `${(order.amount_cents / 100).toFixed(2)} USD`;
      env.prompt(
        step,
        'Decide whether to refund the order. Answer with JSON only: {"refund": boolean, "reason": string}.',
        `Order ${order.order_id}, ${amount}. The customer says it arrived damaged and sent a photo.`,
      );
      await env.callModel(step, haiku, {
        inputTokens: env.rng.int(700, 1_500),
        outputTokens: env.rng.int(40, 120),
        cachedInputTokens: 0,
      });
      const invalid = env.chance(0.02);
      // a cut-off answer is what fails to parse
      env.answer(
        step,
        `{"refund": true, "reason": "damaged on arrival${invalid ? '' : ', within the return window"}'}`,
      );
      if (invalid) await env.fail('invalid_json', 'model output is not valid JSON', 1);
    });
    await tt.act(
      'issue_refund',
      async () => {
        await env.work(700, { tailChance: 0.03, tailFactor: 8 });
        if (env.chance(0.03)) await env.fail('card_declined', 'payment gateway declined the refund', 300);
      },
      { sideEffect: true },
    );
    await tt.act(
      'send_confirmation_email',
      async () => {
        await env.work(260);
        if (env.chance(0.02)) await env.fail('smtp_421', 'mail server busy', 150);
      },
      { sideEffect: true },
    );
    await tt.tool(
      'update_ledger',
      order,
      async () => {
        await env.work(140);
        if (env.chance(0.06)) await env.fail('ECONNRESET', 'ledger DB: connection reset by peer', 2_000);
      },
      { sideEffect: true },
    );
    await tt.validate('reconcile', async (step) => {
      await env.work(80);
      step.setOutputHash({ balanced: true });
    });
  },
};
