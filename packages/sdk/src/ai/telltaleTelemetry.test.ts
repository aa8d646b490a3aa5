import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { OtelAttr, TelltaleAttr, VercelAiAttr } from '@telltale/semconv';
import { generateText, stepCountIs, streamText, tool } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { inMemoryTelltale } from '../testing/inMemoryTelltale.js';
import { ModelServer, recording as llmFixture } from '@telltale/model-server';
import { telltaleTelemetry } from './telltaleTelemetry.js';

let server: ModelServer;
beforeAll(async () => {
  server = await ModelServer.start();
});
afterAll(() => server.stop());

const usageOf = (name: string) =>
  (llmFixture(name).body as { usage: unknown }).usage as { prompt_tokens: number; completion_tokens: number };

function model() {
  return createOpenAICompatible({ name: 'openai', baseURL: `${server.origin}/v1`, apiKey: 'sk-test' })('gpt-4o-mini');
}

describe('telltaleTelemetry (Vercel AI SDK)', () => {
  it('a generateText tool loop inside run() yields doGenerate (llm) and toolCall (tool) spans of the run', async () => {
    const mem = inMemoryTelltale();
    const orders: string[] = [];
    const result = await mem.telltale.run('support-agent', () =>
      generateText({
        model: model(),
        prompt: 'Where is order A-1042?',
        tools: {
          lookupOrder: tool({
            description: 'Looks an order up',
            inputSchema: z.object({ orderId: z.string() }),
            execute: ({ orderId }) => {
              orders.push(orderId);
              return Promise.resolve({ status: 'refunded' });
            },
          }),
        },
        stopWhen: stepCountIs(3),
        experimental_telemetry: telltaleTelemetry({ tracerProvider: mem.provider, functionId: 'support-agent' }),
      }),
    );
    expect(orders).toEqual(['A-1042']);
    expect(result.steps).toHaveLength(2);
    const runId = mem.span('support-agent').attributes[TelltaleAttr.runId];
    const calls = mem.spans().filter((s) => s.name === 'ai.generateText.doGenerate');
    expect(calls).toHaveLength(2);
    const [first, second] = calls.map((s) => s.attributes);
    expect(first![VercelAiAttr.inputTokens] ?? first![OtelAttr.genAiInputTokens]).toBe(
      usageOf('openai-chat-tool').prompt_tokens,
    );
    expect(second![VercelAiAttr.outputTokens] ?? second![OtelAttr.genAiOutputTokens]).toBe(
      usageOf('openai-chat').completion_tokens,
    );
    const toolSpan = mem.span('ai.toolCall');
    expect(toolSpan.attributes[VercelAiAttr.toolCallName]).toBe('lookupOrder');
    for (const s of [...calls, toolSpan]) expect(s.attributes[TelltaleAttr.runId]).toBe(runId);
  });

  it('streamText records a doStream span with the streamed usage', async () => {
    const mem = inMemoryTelltale();
    const result = streamText({
      model: model(),
      prompt: 'refund?',
      experimental_telemetry: telltaleTelemetry({ tracerProvider: mem.provider }),
    });
    expect(await result.text).toBe('Your refund was issued on 3 March and should arrive within 5 business days.');
    const deadline = Date.now() + 5000;
    while (mem.spans().every((s) => s.name !== 'ai.streamText.doStream') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 5));
    const s = mem.span('ai.streamText.doStream').attributes;
    expect(s[VercelAiAttr.inputTokens] ?? s[OtelAttr.genAiInputTokens]).toBe(usageOf('openai-chat').prompt_tokens);
  });
});
