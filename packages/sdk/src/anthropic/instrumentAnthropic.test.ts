import Anthropic from '@anthropic-ai/sdk';
import { OtelAttr, TelltaleAttr } from '@telltale/semconv';
import { SpanStatusCode } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTelltale } from '../createTelltale.js';
import { inMemoryTelltale } from '../testing/inMemoryTelltale.js';
import { ModelServer, RATE_LIMITED_MODEL, recording as llmFixture } from '@telltale/model-server';
import { instrumentAnthropic } from './instrumentAnthropic.js';

let server: ModelServer;
beforeAll(async () => {
  server = await ModelServer.start();
});
afterAll(() => server.stop());

const MODEL = 'claude-sonnet-4-20250514';
const usage = (llmFixture('anthropic-messages').body as { usage: unknown }).usage as {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
};
/** The GenAI convention's input tokens include cache reads and writes, which Anthropic counts apart. */
const INPUT = usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens;

function setup() {
  const mem = inMemoryTelltale();
  const raw = new Anthropic({ apiKey: 'sk-ant-test', baseURL: server.origin, maxRetries: 0 });
  return { mem, raw, client: instrumentAnthropic(raw, { telltale: mem.telltale }) };
}

const params = { model: MODEL, max_tokens: 1024, messages: [{ role: 'user' as const, content: 'refund?' }] };

function expectRecordedUsage(attributes: Record<string, unknown>): void {
  expect(attributes).toMatchObject({
    [TelltaleAttr.stepKind]: 'llm',
    [OtelAttr.genAiProviderName]: 'anthropic',
    [OtelAttr.genAiRequestModel]: MODEL,
    [OtelAttr.genAiResponseModel]: MODEL,
    [OtelAttr.genAiInputTokens]: INPUT,
    [OtelAttr.genAiOutputTokens]: usage.output_tokens,
    [OtelAttr.genAiCacheReadInputTokens]: usage.cache_read_input_tokens,
    [OtelAttr.genAiCacheCreationInputTokens]: usage.cache_creation_input_tokens,
    [OtelAttr.genAiResponseFinishReasons]: ['end_turn'],
  });
}

describe('instrumentAnthropic', () => {
  it('messages.create, messages.create({ stream }) and messages.stream record the same recorded usage', async () => {
    const { mem, client } = setup();
    const message = await client.messages.create(params);
    expect(message.content[0]).toMatchObject({ type: 'text' });
    const events = await client.messages.create({ ...params, stream: true });
    let deltas = 0;
    for await (const e of events) if (e.type === 'content_block_delta') deltas++;
    expect(deltas).toBe(3);
    const final = await client.messages.stream(params).finalMessage();
    expect(final.usage.output_tokens).toBe(usage.output_tokens);
    const spans = mem.spans().filter((s) => s.name === `chat ${MODEL}`);
    expect(spans).toHaveLength(3);
    for (const s of spans) {
      expectRecordedUsage(s.attributes);
      expect(s.status.code).toBe(SpanStatusCode.OK);
    }
    expect(spans[0]!.attributes[TelltaleAttr.llmTimeToFirstTokenMs]).toBeUndefined();
    expect(spans[1]!.attributes[TelltaleAttr.llmTimeToFirstTokenMs]).toBeGreaterThan(0);
    expect(spans[2]!.attributes[TelltaleAttr.llmTimeToFirstTokenMs]).toBeGreaterThan(0);
  });

  it('an abandoned raw stream (break after the first event) still ends its span, with the input usage known so far', async () => {
    const { mem, client } = setup();
    const events = await client.messages.create({ ...params, stream: true });
    for await (const e of events) {
      expect(e.type).toBe('message_start');
      break;
    }
    const s = mem.span(`chat ${MODEL}`);
    expect(s.attributes[TelltaleAttr.llmStreamAbandoned]).toBe(true);
    expect(s.attributes[OtelAttr.genAiInputTokens]).toBe(INPUT);
  });

  it('an abandoned MessageStream (break) ends its span', async () => {
    const { mem, client } = setup();
    const stream = client.messages.stream(params);
    for await (const e of stream) {
      expect(e.type).toBe('message_start');
      break;
    }
    const deadline = Date.now() + 5000;
    while (mem.spans().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    expect(mem.span(`chat ${MODEL}`).attributes[TelltaleAttr.llmStreamAbandoned]).toBe(true);
  });

  it('a 429 becomes a failed llm step with error.type rate_limit', async () => {
    const { mem, client } = setup();
    const err = await client.messages.create({ ...params, model: RATE_LIMITED_MODEL }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(Anthropic.RateLimitError);
    const s = mem.span(`chat ${RATE_LIMITED_MODEL}`);
    expect(s.status.code).toBe(SpanStatusCode.ERROR);
    expect(s.attributes[OtelAttr.errorType]).toBe('rate_limit');
    expect(s.events[0]!.attributes?.['exception.type']).toBe('rate_limit');
  });

  it('a 429 on messages.stream fails its step too', async () => {
    const { mem, client } = setup();
    const err = await client.messages
      .stream({ ...params, model: RATE_LIMITED_MODEL })
      .finalMessage()
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(Anthropic.RateLimitError);
    expect(mem.span(`chat ${RATE_LIMITED_MODEL}`).attributes[OtelAttr.errorType]).toBe('rate_limit');
  });

  it('records what each call sent and answered, streamed or not, under capture full', async () => {
    const mem = inMemoryTelltale();
    const telltale = createTelltale({ tracerProvider: mem.provider, capture: 'full' });
    const client = instrumentAnthropic(
      new Anthropic({ apiKey: 'sk-ant-test', baseURL: server.origin, maxRetries: 0 }),
      {
        telltale,
      },
    );
    const withSystem = { ...params, system: 'You answer refunds.' };
    await client.messages.create(withSystem);
    let text = '';
    for await (const e of await client.messages.create({ ...withSystem, stream: true }))
      if (e.type === 'content_block_delta' && e.delta.type === 'text_delta') text += e.delta.text;
    await client.messages.stream(withSystem).finalMessage();
    const spans = mem.spans();
    expect(spans).toHaveLength(3);
    const sent = spans.map((s) => JSON.parse(s.attributes[OtelAttr.genAiInputMessages] as string) as unknown);
    expect(sent[1]).toEqual(sent[0]);
    expect(sent[2]).toEqual(sent[0]);
    expect(sent[0]).toEqual([
      { role: 'system', parts: [{ type: 'text', content: 'You answer refunds.' }] },
      { role: 'user', parts: [{ type: 'text', content: 'refund?' }] },
    ]);
    const answered = spans.map((s) => JSON.parse(s.attributes[OtelAttr.genAiOutputMessages] as string) as unknown);
    expect(answered[1]).toEqual(answered[0]);
    expect(answered[2]).toEqual(answered[0]);
    expect(JSON.stringify(answered[1])).toContain(JSON.stringify(text).slice(1, -1));
  });

  it("records each call once when the client traces its own calls: the step, not the client's span under it", async () => {
    const mem = inMemoryTelltale();
    // the client's own tracing, sent where the steps go (as it is when both use the global provider)
    const raw = new Anthropic({
      apiKey: 'sk-ant-test',
      baseURL: server.origin,
      maxRetries: 0,
      openTelemetry: { tracerProvider: mem.provider },
    });
    await raw.messages.create(params);
    const own = mem.spans();
    expect(own).toHaveLength(1);
    expect(own[0]!.attributes[TelltaleAttr.stepKind]).toBeUndefined();
    const client = instrumentAnthropic(raw, { telltale: mem.telltale });
    await client.messages.create(params);
    await client.messages.stream(params).finalMessage();
    await client.messages.create({ ...params, model: RATE_LIMITED_MODEL }).catch(() => undefined);
    const steps = mem.spans().slice(1);
    expect(steps.map((s) => s.name)).toEqual([`chat ${MODEL}`, `chat ${MODEL}`, `chat ${RATE_LIMITED_MODEL}`]);
    expect(steps.every((s) => s.attributes[TelltaleAttr.stepKind] === 'llm')).toBe(true);
    expect(steps[2]!.attributes[OtelAttr.errorType]).toBe('rate_limit');
  });

  it('leaves the client alone unless patch is asked for', async () => {
    const { mem, raw } = setup();
    await raw.messages.create(params);
    expect(mem.spans()).toHaveLength(0);
    expect(instrumentAnthropic(raw, { telltale: mem.telltale, patch: true })).toBe(raw);
    await raw.messages.create(params);
    expect(mem.spans()).toHaveLength(1);
  });
});
