import { HumanMessage, ToolMessage } from '@langchain/core/messages';
import type { BaseMessage, AIMessage } from '@langchain/core/messages';
import { tool as lcTool } from '@langchain/core/tools';
import { ChatOpenAI } from '@langchain/openai';
import { chatUsage, loadScenarios, ModelServer } from '@telltale/model-server';
import { createTelltale, createTracerProvider } from '@telltale/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { pollUntil } from './harness/exportRunWithKey.js';
import type { ApiRun, ApiSpan } from './harness/interopApi.js';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

// The recipe of docs/integrations/langchain.md, as written there: each model
// call inside llm() with the usage LangChain reports, each tool call inside tool().
describe('LangChain.js recipe → real server → API', () => {
  let telltale: TelltaleProcess;
  let model: ModelServer;
  beforeAll(async () => {
    [telltale, model] = await Promise.all([TelltaleProcess.start(), ModelServer.start()]);
  });
  afterAll(() => Promise.all([telltale.dispose(), model.stop()]));

  it('a ChatOpenAI tool loop becomes llm and tool steps of one run, with the recorded tokens', async () => {
    const provider = createTracerProvider({ service: 'langchain-agent', endpoint: telltale.url });
    const tt = createTelltale({ tracerProvider: provider });

    const lookupOrder = lcTool(({ orderId }) => JSON.stringify({ orderId, status: 'shipped' }), {
      name: 'lookup_order',
      description: 'Status of an order',
      schema: z.object({ orderId: z.string() }),
    });
    const chat = new ChatOpenAI({
      model: 'gpt-4o-mini',
      apiKey: 'sk-local',
      maxRetries: 0,
      configuration: { baseURL: `${model.origin}/v1` },
    }).bindTools([lookupOrder]);

    const { runId, answer } = await tt.run('support-ticket', async (run) => {
      const messages: BaseMessage[] = [new HumanMessage('Where is my order ORD-1001?')];
      for (let turn = 0; turn < 4; turn++) {
        const reply: AIMessage = await tt.llm(
          'chat gpt-4o-mini',
          { model: 'gpt-4o-mini', provider: 'openai' },
          async (step) => {
            const m = await chat.invoke(messages);
            const u = m.usage_metadata;
            if (u !== undefined)
              step.recordUsage({
                inputTokens: u.input_tokens,
                outputTokens: u.output_tokens,
                cachedInputTokens: u.input_token_details?.cache_read ?? 0,
              });
            return m;
          },
        );
        messages.push(reply);
        if (!reply.tool_calls?.length) return { runId: run.runId, answer: reply.text };
        for (const call of reply.tool_calls) {
          const out = await tt.tool(call.name, call.args, () => lookupOrder.invoke(call.args as { orderId: string }));
          messages.push(new ToolMessage({ content: String(out), tool_call_id: call.id ?? '' }));
        }
      }
      throw new Error('no answer');
    });
    await provider.forceFlush();
    await provider.shutdown();
    expect(answer).toContain('ORD-1001 shipped');

    const turns = loadScenarios()
      .find((s) => s.name === 'support/where-is-order')!
      .turns.map(chatUsage);
    const { value } = await pollUntil(
      () => telltale.getJson<{ runs: ApiRun[] }>(`/api/v1/runs?service=langchain-agent`),
      (r) => r.body.runs.some((x) => x.runId === runId && x.spans === 4),
      20_000,
    );
    const row = value.body.runs.find((x) => x.runId === runId)!;
    expect(row.outcome).toBe('success');
    expect(row.inputTokens).toBe(turns[0]!.prompt_tokens + turns[1]!.prompt_tokens);
    expect(row.outputTokens).toBe(turns[0]!.completion_tokens + turns[1]!.completion_tokens);
    const { body } = await telltale.getJson<{ spans: ApiSpan[] }>(`/api/v1/runs/${runId}`);
    expect(body.spans.map((s) => s.stepKind).sort()).toEqual(['llm', 'llm', 'run', 'tool']);
    expect(body.spans.find((s) => s.stepKind === 'tool')!.toolName).toBe('lookup_order');
  });
});
