import OpenAI from 'openai';
import { OtelAttr, TelltaleAttr } from '@telltale/semconv';
import { SpanStatusCode } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTelltale } from '../createTelltale.js';
import { inMemoryTelltale } from '../testing/inMemoryTelltale.js';
import { ModelServer, RATE_LIMITED_MODEL, recording as llmFixture } from '@telltale/model-server';
import { instrumentOpenAI } from './instrumentOpenAI.js';

let server: ModelServer;
beforeAll(async () => {
  server = await ModelServer.start();
});
afterAll(() => server.stop());

function setup() {
  const mem = inMemoryTelltale();
  const raw = new OpenAI({ apiKey: 'sk-test', baseURL: `${server.origin}/v1`, maxRetries: 0 });
  return { mem, raw, client: instrumentOpenAI(raw, { telltale: mem.telltale }) };
}

const chatUsage = (llmFixture('openai-chat').body as { usage: unknown }).usage as {
  prompt_tokens: number;
  completion_tokens: number;
  prompt_tokens_details: { cached_tokens: number };
  completion_tokens_details: { reasoning_tokens: number };
};

describe('instrumentOpenAI: chat.completions.create', () => {
  it('records a streamed answer as the messages it was put together from, as far as it was read', async () => {
    const mem = inMemoryTelltale();
    const telltale = createTelltale({ tracerProvider: mem.provider, capture: 'full' });
    const client = instrumentOpenAI(new OpenAI({ apiKey: 'sk-test', baseURL: `${server.origin}/v1`, maxRetries: 0 }), {
      telltale,
    });
    const params = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'refund?' }] };
    const whole = await client.chat.completions.create(params);
    let text = '';
    for await (const chunk of await client.chat.completions.create({ ...params, stream: true }))
      text += chunk.choices[0]?.delta.content ?? '';
    const [plain, streamed] = mem
      .spans()
      .map((s) => JSON.parse(s.attributes[OtelAttr.genAiOutputMessages] as string) as unknown);
    expect(text).toBe(whole.choices[0]!.message.content);
    expect(streamed).toEqual(plain);
    expect(streamed).toEqual([{ role: 'assistant', parts: [{ type: 'text', content: text }], finish_reason: 'stop' }]);
    // a stream left after its first words keeps those
    for await (const chunk of await client.chat.completions.create({ ...params, stream: true }))
      if ((chunk.choices[0]?.delta.content ?? '') !== '') break;
    const cut = JSON.parse(mem.spans()[2]!.attributes[OtelAttr.genAiOutputMessages] as string) as {
      parts: { content: string }[];
    }[];
    expect(text.startsWith(cut[0]!.parts[0]!.content)).toBe(true);
    expect(cut[0]!.parts[0]!.content.length).toBeGreaterThan(0);
  });

  it('records a non-streamed call as an llm step with the recorded usage', async () => {
    const { mem, client } = setup();
    const res = await mem.telltale.run('agent', () =>
      client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'refund?' }] }),
    );
    expect(res.choices[0]!.message.content).toContain('refund');
    const s = mem.span('chat gpt-4o-mini');
    expect(s.attributes).toMatchObject({
      [TelltaleAttr.stepKind]: 'llm',
      [OtelAttr.genAiProviderName]: 'openai',
      [OtelAttr.genAiRequestModel]: 'gpt-4o-mini',
      [OtelAttr.genAiResponseModel]: 'gpt-4o-mini-2024-07-18',
      [OtelAttr.genAiInputTokens]: chatUsage.prompt_tokens,
      [OtelAttr.genAiOutputTokens]: chatUsage.completion_tokens,
      [OtelAttr.genAiCacheReadInputTokens]: chatUsage.prompt_tokens_details.cached_tokens,
      [OtelAttr.genAiReasoningOutputTokens]: chatUsage.completion_tokens_details.reasoning_tokens,
      [OtelAttr.genAiResponseFinishReasons]: ['stop'],
    });
    expect(s.attributes[TelltaleAttr.runId]).toBe(mem.span('agent').attributes[TelltaleAttr.runId]);
    expect(s.status.code).toBe(SpanStatusCode.OK);
    expect(s.attributes[TelltaleAttr.llmTimeToFirstTokenMs]).toBeUndefined();
  });

  it('a streamed call gives the same tokens, the same chunks as without usage, and a time to first token', async () => {
    const { mem, client } = setup();
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'refund?' }],
      stream: true,
    });
    let text = '';
    let chunks = 0;
    for await (const chunk of stream) {
      chunks++;
      text += chunk.choices[0]!.delta.content ?? '';
    }
    expect(text).toBe('Your refund was issued on 3 March and should arrive within 5 business days.');
    expect(chunks).toBe(6); // the usage-only chunk we asked for is hidden
    expect(server.requests.at(-1)!.body.stream_options).toEqual({ include_usage: true });
    const s = mem.span('chat gpt-4o-mini');
    expect(s.attributes[OtelAttr.genAiInputTokens]).toBe(chatUsage.prompt_tokens);
    expect(s.attributes[OtelAttr.genAiOutputTokens]).toBe(chatUsage.completion_tokens);
    expect(s.attributes[OtelAttr.genAiCacheReadInputTokens]).toBe(chatUsage.prompt_tokens_details.cached_tokens);
    expect(s.attributes[OtelAttr.genAiResponseFinishReasons]).toEqual(['stop']);
    const ttft = s.attributes[TelltaleAttr.llmTimeToFirstTokenMs] as number;
    expect(ttft).toBeGreaterThan(0);
    const durationMs = s.duration[0] * 1000 + s.duration[1] / 1e6;
    expect(ttft).toBeLessThanOrEqual(durationMs);
  });

  it('an abandoned stream (break after the first chunk) still ends its span', async () => {
    const { mem, client } = setup();
    const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [], stream: true });
    for await (const chunk of stream) {
      expect(chunk.id).toBeTruthy();
      break;
    }
    const s = mem.span('chat gpt-4o-mini');
    expect(s.attributes[TelltaleAttr.llmStreamAbandoned]).toBe(true);
    expect(s.status.code).toBe(SpanStatusCode.OK);
  });

  it('an aborted stream (controller.abort) ends its span', async () => {
    const { mem, client } = setup();
    const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [], stream: true });
    for await (const chunk of stream) {
      expect(chunk.object).toBe('chat.completion.chunk');
      stream.controller.abort();
    }
    expect(mem.span('chat gpt-4o-mini').attributes[TelltaleAttr.llmStreamAbandoned]).toBe(true);
  });

  it('a 429 becomes a failed llm step with error.type rate_limit, and the caller gets the client error', async () => {
    const { mem, client } = setup();
    const err = await client.chat.completions.create({ model: RATE_LIMITED_MODEL, messages: [] }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    const s = mem.span(`chat ${RATE_LIMITED_MODEL}`);
    expect(s.status.code).toBe(SpanStatusCode.ERROR);
    expect(s.attributes[OtelAttr.errorType]).toBe('rate_limit');
    expect(s.events[0]!.attributes?.['exception.message']).toContain('Rate limit reached');
  });

  it('hands a body it cannot read (null) to the client untouched: the same error, nothing recorded', async () => {
    const { mem, raw, client } = setup();
    const failure = (call: () => unknown): Promise<unknown> =>
      Promise.resolve()
        .then(call)
        .then(
          () => undefined,
          (e: unknown) => e,
        );
    const direct = await failure(() => raw.chat.completions.create(null as never));
    const wrapped = await failure(() => mem.telltale.run('agent', () => client.chat.completions.create(null as never)));
    expect(direct).toBeInstanceOf(Error);
    expect(wrapped).toBeInstanceOf((direct as Error).constructor);
    expect((wrapped as Error).message).toBe((direct as Error).message);
    expect(mem.spans().filter((s) => s.name.startsWith('chat'))).toHaveLength(0);
  });

  it('leaves the client alone unless patch is asked for', async () => {
    const { mem, raw, client } = setup();
    expect(client).not.toBe(raw);
    await raw.chat.completions.create({ model: 'gpt-4o-mini', messages: [] });
    expect(mem.spans()).toHaveLength(0);
    const patched = instrumentOpenAI(raw, { telltale: mem.telltale, patch: true });
    expect(patched).toBe(raw);
    instrumentOpenAI(raw, { telltale: mem.telltale, patch: true }); // idempotent
    await raw.chat.completions.create({ model: 'gpt-4o-mini', messages: [] });
    expect(mem.spans()).toHaveLength(1);
  });
});

describe('instrumentOpenAI: responses.create', () => {
  const usage = (llmFixture('openai-responses').body as { usage: unknown }).usage as {
    input_tokens: number;
    output_tokens: number;
    input_tokens_details: { cached_tokens: number };
    output_tokens_details: { reasoning_tokens: number };
  };

  it('non-streamed and streamed calls record the same recorded usage', async () => {
    const { mem, client } = setup();
    const res = await client.responses.create({ model: 'gpt-4.1', input: 'when does it ship?' });
    expect(res.output_text).toBe('The order ships tomorrow.');
    const stream = await client.responses.create({ model: 'gpt-4.1', input: 'when does it ship?', stream: true });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types.at(-1)).toBe('response.completed');
    const spans = mem.spans().filter((s) => s.name === 'chat gpt-4.1');
    expect(spans).toHaveLength(2);
    for (const s of spans) {
      expect(s.attributes).toMatchObject({
        [OtelAttr.genAiResponseModel]: 'gpt-4.1-2025-04-14',
        [OtelAttr.genAiInputTokens]: usage.input_tokens,
        [OtelAttr.genAiOutputTokens]: usage.output_tokens,
        [OtelAttr.genAiCacheReadInputTokens]: usage.input_tokens_details.cached_tokens,
        [OtelAttr.genAiReasoningOutputTokens]: usage.output_tokens_details.reasoning_tokens,
        [OtelAttr.genAiResponseFinishReasons]: ['completed'],
      });
      expect(s.status.code).toBe(SpanStatusCode.OK);
    }
    expect(spans[1]!.attributes[TelltaleAttr.llmTimeToFirstTokenMs]).toBeGreaterThan(0);
  });
});
