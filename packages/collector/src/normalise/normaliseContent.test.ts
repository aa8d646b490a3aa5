import { OpenInferenceAttr, OtelAttr, TelltaleAttr, TraceloopAttr, VercelAiAttr } from '@telltale/semconv';
import { describe, expect, it } from 'vitest';
import type { AnyValue, OtlpEvent, OtlpSpan, OtlpTraceRequest } from '../otlp/types.js';
import {
  convertV1Payload,
  decodeExportPayload,
  encodeExportPayload,
  SPOOL_PAYLOAD_CONVERTERS,
  SPOOL_PAYLOAD_VERSION,
} from '../ingest/exportPayload.js';
import {
  encodeContentRecordBatch,
  encodeSpanRecordBatch,
  readStoredHalf,
  storedHalfText,
} from '@telltale/store/encode';
import { argsHash } from './argsHash.js';
import { normaliseRequest, type NormaliseOptions } from './normaliseRequest.js';
import { DEFAULT_SPAN_LIMITS } from './spanLimits.js';
import { NOW_MS, NOW_NS, otlpRequest, otlpSpan } from './otlpSpan.fixture.js';

const TRACE = '6b8efff798038103d269b633813fc60c';

let nextId = 1;
function span(name: string, attrs: Record<string, AnyValue>, events: OtlpEvent[] = []): OtlpSpan {
  return otlpSpan({
    traceId: TRACE,
    spanId: (nextId++).toString(16).padStart(16, '0'),
    parentSpanId: 'aaaaaaaaaaaaaaaa',
    name,
    attributes: Object.entries(attrs).map(([key, value]) => ({ key, value })),
    events,
  });
}

const request = (spans: OtlpSpan[]): OtlpTraceRequest => otlpRequest(spans, 'svc');

function normalise(s: OtlpSpan, opts: NormaliseOptions = {}) {
  const result = normaliseRequest(request([s]), 'p', { nowMs: NOW_MS, ...opts });
  expect(result.spans).toHaveLength(1);
  return { ...result, record: result.spans[0]! };
}

const keys = (r: { attributes: ReadonlyArray<{ key: string }> }) => r.attributes.map((a) => a.key).sort();

describe('content extraction', () => {
  it('reads the current GenAI attributes and removes them from the span row', () => {
    const { record, contents } = normalise(
      span('chat gpt-4o', {
        [OtelAttr.genAiOperationName]: 'chat',
        [OtelAttr.genAiRequestModel]: 'gpt-4o',
        [OtelAttr.genAiSystemInstructions]: JSON.stringify([{ type: 'text', content: 'be brief' }]),
        [OtelAttr.genAiInputMessages]: JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'hi' }] }]),
        [OtelAttr.genAiOutputMessages]: JSON.stringify([
          { role: 'assistant', parts: [{ type: 'text', content: 'hello' }], finish_reason: 'stop' },
        ]),
        [TelltaleAttr.contentCapture]: 'full',
        [TelltaleAttr.contentRedactions]: 2n,
      }),
    );
    expect(keys(record)).toEqual([OtelAttr.genAiOperationName, OtelAttr.genAiRequestModel].sort());
    expect(contents).toHaveLength(1);
    expect(contents[0]).toMatchObject({
      spanId: record.spanId,
      traceId: TRACE,
      runId: record.runId,
      input: {
        messages: [
          { role: 'system', content: 'be brief' },
          { role: 'user', content: 'hi' },
        ],
      },
      output: { messages: [{ role: 'assistant', content: 'hello' }] },
      truncated: false,
      capture: 'full',
      redactions: 2,
    });
  });

  it('reads tool arguments and results, and hashes the arguments as before', () => {
    const args = JSON.stringify({ city: 'Paris' });
    const { record, contents } = normalise(
      span('execute_tool weather', {
        [OtelAttr.genAiOperationName]: 'execute_tool',
        [OtelAttr.genAiToolName]: 'weather',
        [OtelAttr.genAiToolCallArguments]: args,
        [OtelAttr.genAiToolCallResult]: '{"temp":21}',
      }),
    );
    expect(record.toolArgsHash).toBe(argsHash(args));
    expect(record.toolArgsHash).not.toBe('');
    expect(keys(record)).not.toContain(OtelAttr.genAiToolCallArguments);
    expect(contents[0]?.input).toEqual({ toolArguments: args });
    expect(contents[0]?.output).toEqual({ toolResult: '{"temp":21}' });
  });

  it('reads the deprecated GenAI message events and moves them out of the span', () => {
    const ev = (name: string, attrs: Record<string, AnyValue>): OtlpEvent => ({
      timeUnixNano: NOW_NS,
      name,
      attributes: Object.entries(attrs).map(([key, value]) => ({ key, value })),
      droppedAttributesCount: 0,
    });
    const { record, contents } = normalise(
      span('chat m', { [OtelAttr.genAiOperationName]: 'chat' }, [
        ev('gen_ai.system.message', { content: 'sys' }),
        ev('gen_ai.user.message', { content: 'question' }),
        ev('gen_ai.choice', { 'gen_ai.event.content': JSON.stringify({ message: { content: 'answer' } }) }),
        ev('exception', { 'exception.type': 'E' }),
      ]),
    );
    expect(record.events.map((e) => e.name)).toEqual(['exception']);
    expect(contents[0]?.input.messages).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'question' },
    ]);
    expect(contents[0]?.output.messages).toEqual([{ role: 'assistant', content: 'answer' }]);
  });

  it('keeps no content row for a message event without a body, and still takes it off the span', () => {
    const choice: OtlpEvent = {
      timeUnixNano: NOW_NS,
      name: 'gen_ai.choice',
      attributes: [{ key: 'gen_ai.response.finish_reason', value: 'stop' }],
      droppedAttributesCount: 0,
    };
    const { record, contents } = normalise(span('chat m', { [OtelAttr.genAiOperationName]: 'chat' }, [choice]));
    expect(record.events).toEqual([]);
    expect(contents).toEqual([]);
  });

  it('reads OpenInference values and flattened messages', () => {
    const { record, contents } = normalise(
      span('ChatOpenAI', {
        [OpenInferenceAttr.spanKind]: 'LLM',
        [OpenInferenceAttr.inputValue]: '{"q":1}',
        [OpenInferenceAttr.outputValue]: 'done',
        'llm.input_messages.1.message.role': 'user',
        'llm.input_messages.1.message.content': 'second',
        'llm.input_messages.0.message.role': 'system',
        'llm.input_messages.0.message.content': 'first',
        'llm.output_messages.0.message.role': 'assistant',
        'llm.output_messages.0.message.content': 'reply',
      }),
    );
    expect(keys(record)).toEqual([OpenInferenceAttr.spanKind]);
    expect(contents[0]?.input).toEqual({
      text: '{"q":1}',
      messages: [
        { role: 'system', content: 'first' },
        { role: 'user', content: 'second' },
      ],
    });
    expect(contents[0]?.output).toEqual({ text: 'done', messages: [{ role: 'assistant', content: 'reply' }] });
  });

  it('keeps the tool calls and other fields of a flattened message, after its text', () => {
    const { record, contents } = normalise(
      span('ChatOpenAI', {
        [OpenInferenceAttr.spanKind]: 'LLM',
        'llm.output_messages.0.message.role': 'assistant',
        'llm.output_messages.0.message.content': '',
        'llm.output_messages.0.message.tool_calls.0.tool_call.id': 'call_1',
        'llm.output_messages.0.message.tool_calls.0.tool_call.function.name': 'get_weather',
        'llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments': '{"city":"Paris"}',
        'llm.output_messages.0.message.tool_calls.1.tool_call.function.name': 'get_time',
      }),
    );
    expect(keys(record)).toEqual([OpenInferenceAttr.spanKind]);
    const [called] = contents[0]!.output.messages!;
    expect(called!.role).toBe('assistant');
    expect(JSON.parse(called!.content)).toEqual({
      tool_calls: [
        { tool_call: { id: 'call_1', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } } },
        { tool_call: { function: { name: 'get_time' } } },
      ],
    });
    const openLlmetry = normalise(
      span('openai.chat', {
        [OtelAttr.genAiSystem]: 'openai',
        'gen_ai.completion.0.role': 'assistant',
        'gen_ai.completion.0.content': 'calling',
        'gen_ai.completion.0.finish_reason': 'tool_calls',
        'gen_ai.completion.0.tool_calls.0.name': 'lookup',
        'gen_ai.completion.0.tool_calls.0.arguments': '{"id":7}',
      }),
    );
    expect(openLlmetry.contents[0]?.output.messages).toEqual([
      {
        role: 'assistant',
        content: 'calling\n{"finish_reason":"tool_calls","tool_calls":[{"arguments":"{\\"id\\":7}","name":"lookup"}]}',
      },
    ]);
  });

  it('reads the Vercel AI SDK prompt, messages, text and tool calls', () => {
    const outer = normalise(
      span('ai.generateText', {
        [VercelAiAttr.prompt]: JSON.stringify({ system: 'sys', prompt: 'tell me' }),
        [VercelAiAttr.responseText]: 'told',
      }),
    );
    expect(outer.contents[0]?.input.messages).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'tell me' },
    ]);
    expect(outer.contents[0]?.output.text).toBe('told');
    const inner = normalise(
      span('ai.generateText.doGenerate', {
        [VercelAiAttr.promptMessages]: JSON.stringify([{ role: 'user', content: [{ type: 'text', text: 'hey' }] }]),
        [VercelAiAttr.responseToolCalls]: '[{"toolName":"x"}]',
      }),
    );
    expect(inner.contents[0]?.input.messages).toEqual([{ role: 'user', content: 'hey' }]);
    expect(inner.contents[0]?.output.toolArguments).toBe('[{"toolName":"x"}]');
    const tool = normalise(
      span('ai.toolCall', {
        [VercelAiAttr.toolCallName]: 'x',
        [VercelAiAttr.toolCallArgs]: '{"a":1}',
        [VercelAiAttr.toolCallResult]: '"ok"',
      }),
    );
    expect(tool.record.toolArgsHash).toBe(argsHash('{"a":1}'));
    expect(tool.contents[0]?.input.toolArguments).toBe('{"a":1}');
    expect(tool.contents[0]?.output.toolResult).toBe('"ok"');
    expect(keys(tool.record)).toEqual([VercelAiAttr.toolCallName]);
  });

  it('reads OpenLLMetry flattened prompts and completions and entity input/output', () => {
    const { record, contents } = normalise(
      span('openai.chat', {
        [OtelAttr.genAiSystem]: 'openai',
        'gen_ai.prompt.0.role': 'user',
        'gen_ai.prompt.0.content': 'q',
        'gen_ai.completion.0.role': 'assistant',
        'gen_ai.completion.0.content': 'a',
        [TraceloopAttr.entityInput]: '{"x":1}',
        [TraceloopAttr.entityOutput]: '{"y":2}',
        [OtelAttr.genAiPromptTokens]: 3n,
      }),
    );
    expect(keys(record)).toEqual([OtelAttr.genAiPromptTokens, OtelAttr.genAiSystem].sort());
    expect(record.inputTokens).toBe(3);
    expect(contents[0]?.input).toEqual({ text: '{"x":1}', messages: [{ role: 'user', content: 'q' }] });
    expect(contents[0]?.output).toEqual({ text: '{"y":2}', messages: [{ role: 'assistant', content: 'a' }] });
  });

  it('cuts a 5 MB prompt to the per-span limit on a character boundary, and counts it', () => {
    const prompt = 'é'.repeat(2_500_000) + 'x'; // 5,000,001 UTF-8 bytes
    const { record, contents, content, errors, cut } = normalise(
      span('chat m', {
        [OtelAttr.genAiOperationName]: 'chat',
        [OtelAttr.genAiInputMessages]: JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: prompt }] }]),
        [OtelAttr.genAiOutputMessages]: JSON.stringify([
          { role: 'assistant', parts: [{ type: 'text', content: 'ok' }] },
        ]),
      }),
    );
    const c = contents[0]!;
    const kept = c.input.messages?.[0]?.content ?? '';
    expect(c.truncated).toBe(true);
    expect(c.originalBytes).toBe(5_000_001 + 'user'.length + 'assistant'.length + 2);
    const storedBytes = ['user', kept, 'assistant', 'ok'].reduce((n, s) => n + Buffer.byteLength(s), 0);
    expect(storedBytes).toBeLessThanOrEqual(DEFAULT_SPAN_LIMITS.maxContentBytes);
    expect(storedBytes).toBeGreaterThan(DEFAULT_SPAN_LIMITS.maxContentBytes - 16);
    expect(kept).toMatch(/^é+$/); // no half character
    expect(c.output.messages).toEqual([{ role: 'assistant', content: 'ok' }]); // the answer is kept whole
    expect(content).toEqual({ kept: 1, truncated: 1, dropped: 0, storedBytes });
    expect(errors.join()).toContain('content cut to 1048576 bytes');
    expect(cut.truncatedValues).toBe(0); // the span's own attribute limit never saw the prompt
    expect(keys(record)).toEqual([OtelAttr.genAiOperationName]);
  });

  it('keeps a long message list verbatim, and reads it back as the messages parsing gives', () => {
    const long = 'order #42 refund check '.repeat(20);
    const input = [
      { role: 'system', parts: [{ type: 'text', content: `be brief ${long}` }] },
      { role: 'user', parts: [{ type: 'text', content: long }] },
      { role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 'lookup', arguments: { q: 1e3 } }] },
      { role: 'tool', parts: [{ type: 'tool_call_response', id: 'c1', response: 'é ok' }] },
    ];
    const output = [{ role: 'assistant', parts: [{ type: 'text', content: long }], finish_reason: 'stop' }];
    const attrs = {
      [OtelAttr.genAiOperationName]: 'chat',
      [OtelAttr.genAiInputMessages]: JSON.stringify(input),
      [OtelAttr.genAiOutputMessages]: JSON.stringify(output),
    };
    const expected = {
      input: {
        messages: [
          { role: 'system', content: `be brief ${long}` },
          { role: 'user', content: long },
          { role: 'assistant', content: JSON.stringify(input[2]!.parts[0]) },
          { role: 'tool', content: JSON.stringify(input[3]!.parts[0]) },
        ],
      },
      output: { messages: [{ role: 'assistant', content: long }] },
    };
    const { contents, content } = normalise(span('chat m', attrs));
    const c = contents[0]!;
    // stored as received: the column holds the attribute's text itself
    expect(c.input.verbatim).toEqual({ shape: 'genAiMessages', json: attrs[OtelAttr.genAiInputMessages] });
    expect(storedHalfText(c.input)).toContain(attrs[OtelAttr.genAiInputMessages]);
    expect(c.truncated).toBe(false);
    expect(content.storedBytes).toBe(
      Buffer.byteLength(attrs[OtelAttr.genAiInputMessages]) + Buffer.byteLength(attrs[OtelAttr.genAiOutputMessages]),
    );
    expect(readStoredHalf(storedHalfText(c.input))).toEqual(expected.input);
    expect(readStoredHalf(storedHalfText(c.output))).toEqual(expected.output);
    // a limit the list could outgrow once read: read now, then cut as before
    const cut = normalise(span('chat m', attrs), {
      limits: { ...DEFAULT_SPAN_LIMITS, maxContentBytes: 600 },
    }).contents[0]!;
    expect(cut.input.verbatim).toBeUndefined();
    expect(cut.truncated).toBe(true);
    expect(cut.input.messages?.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(cut.output.messages?.[0]?.content).toBe(long.slice(0, cut.output.messages?.[0]?.content.length));
    // with another source on its side (system instructions), the list is read at ingest
    const mixed = normalise(
      span('chat m', {
        ...attrs,
        [OtelAttr.genAiSystemInstructions]: JSON.stringify([{ type: 'text', content: 's' }]),
      }),
    ).contents[0]!;
    expect(mixed.input.verbatim).toBeUndefined();
    expect(mixed.input.messages?.[0]).toEqual({ role: 'system', content: 's' });
    expect(mixed.output.verbatim).toBeDefined();
    // an event without a body (a choice recorded with capture off) adds no message, and leaves the list verbatim
    const choice: OtlpEvent = {
      timeUnixNano: NOW_NS,
      name: 'gen_ai.choice',
      attributes: [],
      droppedAttributesCount: 0,
    };
    const withChoice = normalise(span('chat m', attrs, [choice]));
    expect(withChoice.record.events).toEqual([]);
    expect(withChoice.contents[0]?.output.verbatim).toBeDefined();
    expect(readStoredHalf(storedHalfText(withChoice.contents[0]!.output))).toEqual(expected.output);
    const short = normalise(
      span('chat m', { [OtelAttr.genAiOutputMessages]: JSON.stringify([{ role: 'assistant', content: 'a' }]) }, [
        choice,
      ]),
    );
    expect(short.contents[0]?.output).toEqual({ messages: [{ role: 'assistant', content: 'a' }] });
    // text that is not a JSON list reads back as text, as it would have at ingest
    const notJson = `not json ${long}`;
    const odd = normalise(span('chat m', { [OtelAttr.genAiOutputMessages]: notJson })).contents[0]!;
    expect(readStoredHalf(storedHalfText(odd.output))).toEqual({ text: notJson });
  });

  it('drops content (counted) when the project keeps none, leaving the span row the same', () => {
    const attrs = {
      [OtelAttr.genAiOperationName]: 'execute_tool',
      [OtelAttr.genAiToolName]: 'w',
      [OtelAttr.genAiToolCallArguments]: '{"k":1}',
    };
    const kept = normalise(span('t', attrs));
    const dropped = normalise(span('t', attrs), { keepContent: false });
    expect(dropped.contents).toEqual([]);
    expect(dropped.content).toEqual({ kept: 0, truncated: 0, dropped: 1, storedBytes: 0 });
    expect({ ...dropped.record, spanId: '' }).toEqual({ ...kept.record, spanId: '' });
  });
});

describe('spool payload version 3', () => {
  it('round-trips content as an Arrow message, and reads a version 1 payload (no content) through its converter', () => {
    const { spans, contents } = normaliseRequest(
      request([span('t', { [OtelAttr.genAiToolName]: 'w', [OtelAttr.genAiToolCallResult]: 'r' })]),
      'p',
      { nowMs: NOW_MS },
    );
    const v3 = decodeExportPayload(Buffer.concat(encodeExportPayload('p', spans, contents)));
    expect(v3.content).toEqual(Buffer.from(encodeContentRecordBatch(contents)));
    expect(v3.message).toEqual(Buffer.from(encodeSpanRecordBatch(spans)));
    expect(decodeExportPayload(Buffer.concat(encodeExportPayload('p', spans, []))).content).toBeUndefined();
    // a version 1 payload: meta without "c", then the Arrow message
    const meta = Buffer.from(JSON.stringify({ p: 'p', r: [spans[0]!.runId] }));
    const len = Buffer.alloc(4);
    len.writeUInt32LE(meta.length, 0);
    const v1 = Buffer.concat([len, meta, encodeSpanRecordBatch(spans)]);
    const read = decodeExportPayload(convertV1Payload(v1));
    expect(read).toMatchObject({ projectId: 'p', runIds: [spans[0]!.runId], content: undefined });
    expect(read.message).toEqual(Buffer.from(encodeSpanRecordBatch(spans)));
    const badMeta = Buffer.from(JSON.stringify({ p: 'p', r: [], c: 99 }));
    const badLen = Buffer.alloc(4);
    badLen.writeUInt32LE(badMeta.length, 0);
    expect(() => decodeExportPayload(Buffer.concat([badLen, badMeta]))).toThrow(/shorter than its content length/);
  });

  it('converts a version 2 payload (content as JSON) into the version 3 payload of the same spans and content', () => {
    const { spans, contents } = normaliseRequest(
      request([
        span('t', { [OtelAttr.genAiToolName]: 'w', [OtelAttr.genAiToolCallResult]: 'r' }),
        span('chat m', {
          [OtelAttr.genAiOperationName]: 'chat',
          [OtelAttr.genAiInputMessages]: JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'é hi' }] }]),
        }),
      ]),
      'p',
      { nowMs: NOW_MS },
    );
    expect(contents).toHaveLength(2);
    // what version 2 wrote: meta with the content JSON's length, the JSON (bigints as text), the spans message
    const json = Buffer.from(
      JSON.stringify(contents.map((c) => ({ ...c, startTimeUnixNano: c.startTimeUnixNano.toString() }))),
    );
    const meta = Buffer.from(JSON.stringify({ p: 'p', r: [...new Set(spans.map((s) => s.runId))], c: json.length }));
    const len = Buffer.alloc(4);
    len.writeUInt32LE(meta.length, 0);
    const v2 = Buffer.concat([len, meta, json, encodeSpanRecordBatch(spans)]);
    expect(SPOOL_PAYLOAD_VERSION).toBe(3);
    const convert = SPOOL_PAYLOAD_CONVERTERS.get(2)!;
    expect(convert(v2)).toEqual(Buffer.concat(encodeExportPayload('p', spans, contents)));
    // a version 2 payload without content is already a version 3 one
    const lean = Buffer.concat(encodeExportPayload('p', spans, []));
    expect(convert(lean)).toEqual(lean);
    const broken = Buffer.concat([len, meta, Buffer.alloc(json.length, 0x20), encodeSpanRecordBatch(spans)]);
    expect(() => convert(broken)).toThrow(/malformed content/);
  });
});
