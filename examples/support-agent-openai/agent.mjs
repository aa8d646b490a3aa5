// A customer-support agent on the `openai` client: a multi-turn tool loop
// (lookup_order, refund_order), a check that the reply is backed by what the
// tools did, and the reply sent. instrumentOpenAI records each model call as
// an llm step; tool(), validate() and act() record the rest of the run.
//
//   npm run build && node examples/support-agent-openai/agent.mjs
//
// Without OPENAI_BASE_URL it answers from the local recorded model server.
import { RunGuardError, act, init, run, shutdown, tool, validate } from '@telltale/sdk';
import { instrumentOpenAI } from '@telltale/sdk/openai';
import OpenAI from 'openai';
import { TICKETS, lookupOrder, refundOrder } from '../shared/orders.mjs';

const local = process.env.OPENAI_BASE_URL ? undefined : await startLocalModel();
init({ service: 'support-agent-openai' }); // TELLTALE_ENDPOINT / TELLTALE_API_KEY, default http://127.0.0.1:4318
const openai = instrumentOpenAI(
  new OpenAI({
    baseURL: process.env.OPENAI_BASE_URL || `${local.origin}/v1`,
    apiKey: process.env.OPENAI_API_KEY ?? 'sk-local',
    maxRetries: 0,
  }),
);

const TOOLS = [
  {
    type: 'function',
    function: {
      name: 'lookup_order',
      description: 'Status, carrier, total and delivery date of an order',
      parameters: { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'] },
    },
  },
  {
    type: 'function',
    function: {
      name: 'refund_order',
      description: 'Refunds an order in full (only within 30 days of delivery)',
      parameters: {
        type: 'object',
        properties: { orderId: { type: 'string' }, reason: { type: 'string' } },
        required: ['orderId', 'reason'],
      },
    },
  },
];
const IMPLEMENTATIONS = { lookup_order: lookupOrder, refund_order: refundOrder };
const MAX_TURNS = 6;

async function handle(ticket) {
  return run(
    'support-ticket',
    async (r) => {
      const messages = [
        {
          role: 'system',
          content: 'You are a support agent for an online shop. Use the tools; never promise what a tool did not do.',
        },
        { role: 'user', content: ticket },
      ];
      const refunds = [];
      for (let turn = 0; turn < MAX_TURNS; turn++) {
        const res = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages, tools: TOOLS });
        const message = res.choices[0].message;
        messages.push(message);
        if (!message.tool_calls?.length) return finish(r, message.content ?? '', refunds);
        for (const call of message.tool_calls) {
          const args = JSON.parse(call.function.arguments);
          const impl = IMPLEMENTATIONS[call.function.name];
          let content;
          try {
            // A tool the agent does not have fails the step, and the run.
            const result = await tool(call.function.name, args, () =>
              impl ? impl(args) : Promise.reject(new Error(`unknown tool ${call.function.name}`)),
            );
            if (call.function.name === 'refund_order') refunds.push(result);
            content = JSON.stringify(result);
          } catch (err) {
            if (err instanceof RunGuardError || !impl) throw err;
            content = JSON.stringify({ error: err.message }); // the model sees the tool's error
          }
          messages.push({ role: 'tool', tool_call_id: call.id, content });
        }
      }
      r.setOutcome('failure', `no answer after ${MAX_TURNS} model turns`);
    },
    { guard: { maxRepeats: 3 } }, // the same tool call three times is a loop: stop it
  );
}

async function finish(r, reply, refunds) {
  const backed = await validate('reply-backed-by-tools', (step) => {
    const claimsRefund = /refunded/i.test(reply);
    const verdict = { claimsRefund, refunds: refunds.length };
    step.setOutputHash(verdict);
    // a failed check fails its step (a returned false would be a passed one)
    if (claimsRefund && refunds.length === 0) throw new CheckFailed('the reply claims a refund no tool made');
    return true;
  }).catch((err) => (err instanceof CheckFailed ? false : Promise.reject(err)));
  if (!backed) return r.setOutcome('failure', 'the reply claims a refund no tool made');
  await act('send-reply', () => console.log(`  → ${reply}`), { sideEffect: true });
}

class CheckFailed extends Error {}

async function startLocalModel() {
  const { ModelServer } = await import('@telltale/model-server');
  return ModelServer.start();
}

for (const ticket of TICKETS) {
  console.log(ticket);
  try {
    await handle(ticket);
  } catch (err) {
    console.log(`  ✗ ${err instanceof Error ? err.message : String(err)}`);
  }
}
await shutdown();
await local?.stop();
console.log('spans sent; open the Telltale dashboard');
