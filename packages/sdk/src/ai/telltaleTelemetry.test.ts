import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { isContentAttribute, OtelAttr, TelltaleAttr, VercelAiAttr } from '@telltale/semconv';
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

  describe('content', () => {
    const PLANTED_KEY = 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWx0123456789';

    /** A tool loop whose prompt and tool arguments hold an e-mail address and an API key, under `capture`. */
    async function toolLoop(options: Parameters<typeof telltaleTelemetry>[0] = {}) {
      const mem = inMemoryTelltale();
      await generateText({
        model: model(),
        prompt: `Where is order A-1042? I am bob@corp.example, key ${PLANTED_KEY}`,
        tools: {
          lookupOrder: tool({
            description: 'Looks an order up',
            inputSchema: z.object({ orderId: z.string() }),
            execute: () => Promise.resolve({ status: 'refunded', contact: 'desk@corp.example' }),
          }),
        },
        stopWhen: stepCountIs(3),
        experimental_telemetry: telltaleTelemetry({ tracerProvider: mem.provider, ...options }),
      });
      const spans = mem.spans();
      const exported = JSON.stringify(spans.map((s) => s.attributes));
      return { spans, exported, tool: mem.span('ai.toolCall').attributes };
    }

    it('keeps none of it by default, and still hashes the tool arguments', async () => {
      const { spans, exported, tool: toolCall } = await toolLoop();
      for (const s of spans) expect(Object.keys(s.attributes).filter(isContentAttribute)).toEqual([]);
      expect(exported).not.toContain('bob@corp.example');
      expect(exported).not.toContain('A-1042');
      expect(exported).not.toContain('desk@corp.example');
      expect(exported).not.toContain('Your refund');
      expect(toolCall[TelltaleAttr.toolArgsHash]).toMatch(/^[0-9a-f]{16}$/);
      expect(toolCall[TelltaleAttr.contentCapture]).toBeUndefined();
      // the same arguments, the same hash: repeated calls are still detected as loops
      expect((await toolLoop()).tool[TelltaleAttr.toolArgsHash]).toBe(toolCall[TelltaleAttr.toolArgsHash]);
    });

    it('redacts every string under full, counting what it changed', async () => {
      const { exported, spans, tool: toolCall } = await toolLoop({ capture: 'full' });
      expect(exported).not.toContain(PLANTED_KEY);
      expect(exported).not.toContain('bob@corp.example');
      expect(exported).not.toContain('desk@corp.example');
      expect(exported).toContain('A-1042');
      expect(exported).toContain('[REDACTED:email]');
      const outer = spans.find((s) => s.name === 'ai.generateText')!.attributes;
      const prompt = JSON.parse(outer[VercelAiAttr.prompt] as string) as { prompt: string };
      expect(prompt.prompt).toBe('Where is order A-1042? I am [REDACTED:email], key [REDACTED:api_key]');
      expect(outer[TelltaleAttr.contentCapture]).toBe('full');
      expect(outer[TelltaleAttr.contentRedactions]).toBe(1);
      expect(JSON.parse(toolCall[VercelAiAttr.toolCallArgs] as string)).toEqual({ orderId: 'A-1042' });
      expect(JSON.parse(toolCall[VercelAiAttr.toolCallResult] as string)).toEqual({
        status: 'refunded',
        contact: '[REDACTED:email]',
      });
      expect(toolCall[TelltaleAttr.contentRedactions]).toBe(1);
      expect(toolCall[TelltaleAttr.toolArgsHash]).toBe((await toolLoop()).tool[TelltaleAttr.toolArgsHash]);
    });

    it('keeps only the shape under metadata', async () => {
      const { exported, tool: toolCall } = await toolLoop({ capture: 'metadata' });
      expect(exported).not.toContain('bob@corp.example');
      expect(exported).not.toContain('A-1042');
      expect(JSON.parse(toolCall[VercelAiAttr.toolCallArgs] as string)).toEqual({ orderId: '[6 chars]' });
      expect(toolCall[TelltaleAttr.contentCapture]).toBe('metadata');
    });
  });
});
