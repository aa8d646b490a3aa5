// The same support agent on the Vercel AI SDK: generateText / streamText run
// the tool loop (lookup_order, refund_order) and telltaleTelemetry sends the
// SDK's own spans to Telltale, where each model call is an llm step and each
// tool execution a tool step of the surrounding run().
//
//   npm run build && node examples/support-agent-ai-sdk/agent.mjs
//
// Without OPENAI_BASE_URL it answers from the local recorded model server.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { init, run, shutdown } from '@telltale/sdk';
import { telltaleTelemetry } from '@telltale/sdk/ai';
import { generateText, stepCountIs, streamText, tool } from 'ai';
import { z } from 'zod';
import { TICKETS, lookupOrder, refundOrder } from '../shared/orders.mjs';

const local = process.env.OPENAI_BASE_URL ? undefined : await startLocalModel();
init({ service: 'support-agent-ai-sdk' }); // TELLTALE_ENDPOINT / TELLTALE_API_KEY, default http://127.0.0.1:4318
const model = createOpenAICompatible({
  name: 'openai',
  baseURL: process.env.OPENAI_BASE_URL || `${local.origin}/v1`,
  apiKey: process.env.OPENAI_API_KEY ?? 'sk-local',
  includeUsage: true, // streamed calls report their tokens too
})('gpt-4o-mini');

const tools = {
  lookup_order: tool({
    description: 'Status, carrier, total and delivery date of an order',
    inputSchema: z.object({ orderId: z.string() }),
    execute: lookupOrder,
  }),
  refund_order: tool({
    description: 'Refunds an order in full (only within 30 days of delivery)',
    inputSchema: z.object({ orderId: z.string(), reason: z.string() }),
    execute: refundOrder,
  }),
};
const MAX_STEPS = 4;

async function handle(ticket, streamed) {
  return run('support-ticket', async (r) => {
    const request = {
      model,
      system: 'You are a support agent for an online shop. Use the tools; never promise what a tool did not do.',
      prompt: ticket,
      tools,
      maxRetries: 0,
      stopWhen: stepCountIs(MAX_STEPS),
      experimental_telemetry: telltaleTelemetry({ functionId: 'support-agent' }),
    };
    let steps;
    let text;
    if (streamed) {
      let failed;
      const result = streamText({ ...request, onError: ({ error }) => (failed = error) });
      for await (const piece of result.textStream) void piece;
      if (failed !== undefined) throw failed;
      [steps, text] = await Promise.all([result.steps, result.text]);
    } else {
      ({ steps, text } = await generateText(request));
    }
    const calls = steps.flatMap((s) => s.toolResults.map((t) => t.toolName));
    if (steps.at(-1)?.finishReason === 'tool-calls')
      return r.setOutcome('failure', `no answer after ${MAX_STEPS} model steps`);
    if (/refunded/i.test(text) && !calls.includes('refund_order'))
      return r.setOutcome('failure', 'the reply claims a refund no tool made');
    if (/escalated/i.test(text) && !calls.includes('escalate_to_human'))
      return r.setOutcome('failure', 'the reply claims an escalation no tool made');
    console.log(`  → ${text}`);
  });
}

async function startLocalModel() {
  const { ModelServer } = await import('@telltale/model-server');
  return ModelServer.start();
}

for (const [i, ticket] of TICKETS.entries()) {
  console.log(ticket);
  try {
    await handle(ticket, i % 2 === 1); // every other ticket streams
  } catch (err) {
    console.log(`  ✗ ${err instanceof Error ? err.message : String(err)}`);
  }
}
await shutdown();
await local?.stop();
console.log('spans sent; open the Telltale dashboard');
