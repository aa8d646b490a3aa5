import { McpAttr, OpenInferenceAttr, OtelAttr, TelltaleAttr, TraceloopAttr, VercelAiAttr } from '@telltale/semconv';
import { describe, expect, it } from 'vitest';
import type { AnyValue, OtlpSpan, OtlpTraceRequest } from '../otlp/types.js';
import { argsHash } from './argsHash.js';
import { normaliseRequest } from './normaliseRequest.js';
import { stableSpanName } from './stepName.js';
import { NOW_MS, NOW_NS, otlpRequest, otlpSpan } from './otlpSpan.fixture.js';

const TRACE = '5b8efff798038103d269b633813fc60c';

let nextId = 1;
function span(name: string, attrs: Record<string, AnyValue>, parentSpanId = 'aaaaaaaaaaaaaaaa'): OtlpSpan {
  return otlpSpan({
    traceId: TRACE,
    spanId: (nextId++).toString(16).padStart(16, '0'),
    parentSpanId,
    name,
    attributes: Object.entries(attrs).map(([key, value]) => ({ key, value })),
  });
}

const request = (spans: OtlpSpan[]): OtlpTraceRequest => otlpRequest(spans, 'svc');

function one(s: OtlpSpan) {
  const { spans } = normaliseRequest(request([s]), 'p', { nowMs: NOW_MS });
  expect(spans).toHaveLength(1);
  return spans[0]!;
}

const pick = (r: ReturnType<typeof one>) => ({
  stepKind: r.stepKind,
  stepName: r.stepName,
  toolName: r.toolName,
  toolArgsHash: r.toolArgsHash,
  model: r.model,
  provider: r.provider,
  inputTokens: r.inputTokens,
  outputTokens: r.outputTokens,
  cachedInputTokens: r.cachedInputTokens,
  costUsd: r.costUsd,
});

describe('OTel GenAI semantic conventions', () => {
  it('reads current names: operation, provider, response model over request model, usage with cache reads', () => {
    const r = one(
      span('chat gpt-4o', {
        [OtelAttr.genAiOperationName]: 'chat',
        [OtelAttr.genAiProviderName]: 'openai',
        [OtelAttr.genAiRequestModel]: 'gpt-4o',
        [OtelAttr.genAiResponseModel]: 'gpt-4o-2024-08-06',
        [OtelAttr.genAiInputTokens]: 120n,
        [OtelAttr.genAiOutputTokens]: 30n,
        [OtelAttr.genAiCacheReadInputTokens]: 100n,
      }),
    );
    expect(pick(r)).toEqual({
      stepKind: 'llm',
      stepName: 'chat gpt-4o',
      toolName: '',
      toolArgsHash: '',
      model: 'gpt-4o-2024-08-06',
      provider: 'openai',
      inputTokens: 120,
      outputTokens: 30,
      cachedInputTokens: 100,
      costUsd: null,
    });
  });

  it('reads deprecated names: gen_ai.system and prompt/completion tokens; current names win when both are sent', () => {
    const old = one(
      span('chat', {
        [OtelAttr.genAiSystem]: 'anthropic',
        [OtelAttr.genAiPromptTokens]: 7n,
        [OtelAttr.genAiCompletionTokens]: 3n,
        [OtelAttr.genAiOperationName]: 'chat',
      }),
    );
    expect([old.provider, old.inputTokens, old.outputTokens]).toEqual(['anthropic', 7, 3]);
    // the deprecated name comes first in the list: precedence is by table rank, not by attribute order
    const both = one(
      span('chat', {
        [OtelAttr.genAiSystem]: 'old',
        [OtelAttr.genAiPromptTokens]: 1n,
        [OtelAttr.genAiProviderName]: 'new',
        [OtelAttr.genAiInputTokens]: 2n,
        [OtelAttr.genAiOperationName]: 'chat',
      }),
    );
    expect([both.provider, both.inputTokens]).toEqual(['new', 2]);
  });

  it('maps agent operations: invoke_agent is the run at the trace root and a handoff below; plan, execute_tool, create_agent', () => {
    expect(one(span('invoke_agent planner', { [OtelAttr.genAiOperationName]: 'invoke_agent' }, '')).stepKind).toBe(
      'run',
    );
    const helper = one(
      span('invoke_agent helper', {
        [OtelAttr.genAiOperationName]: 'invoke_agent',
        [OtelAttr.genAiAgentName]: 'helper',
      }),
    );
    expect([helper.stepKind, helper.stepName]).toEqual(['handoff', 'invoke_agent helper']);
    expect(one(span('plan', { [OtelAttr.genAiOperationName]: 'plan' })).stepKind).toBe('plan');
    expect(one(span('create_agent x', { [OtelAttr.genAiOperationName]: 'create_agent' })).stepKind).toBe('custom');
    const tool = one(
      span('execute_tool search', {
        [OtelAttr.genAiOperationName]: 'execute_tool',
        [OtelAttr.genAiToolName]: 'search',
        [OtelAttr.genAiToolCallArguments]: '{"q":"x"}',
      }),
    );
    expect([tool.stepKind, tool.stepName, tool.toolName, tool.toolArgsHash]).toEqual([
      'tool',
      'search',
      'search',
      argsHash('{"q":"x"}'),
    ]);
  });

  it('takes error.type, else the exception event of a failed span', () => {
    expect(
      one(span('chat', { [OtelAttr.genAiOperationName]: 'chat', [OtelAttr.errorType]: 'rate_limited' })).errorType,
    ).toBe('rate_limited');
    const failed = span('chat', { [OtelAttr.genAiOperationName]: 'chat' });
    failed.status = { code: 2, message: 'boom' };
    failed.events = [
      {
        timeUnixNano: NOW_NS,
        name: 'exception',
        attributes: [{ key: OtelAttr.exceptionType, value: 'TimeoutError' }],
        droppedAttributesCount: 0,
      },
    ];
    expect(one(failed).errorType).toBe('TimeoutError');
  });

  it('counts a total alone as input tokens (a lower bound), never on top of input/output', () => {
    expect(
      one(span('chat', { [OtelAttr.genAiOperationName]: 'chat', [OtelAttr.genAiTotalTokens]: 50n })).inputTokens,
    ).toBe(50);
    const both = one(
      span('chat', {
        [OtelAttr.genAiOperationName]: 'chat',
        [OtelAttr.genAiTotalTokens]: 50n,
        [OtelAttr.genAiInputTokens]: 40n,
        [OtelAttr.genAiOutputTokens]: 10n,
      }),
    );
    expect([both.inputTokens, both.outputTokens]).toEqual([40, 10]);
  });
});

describe('a trace from a backend that only uses the GenAI agent conventions', () => {
  it('invoke_agent at the root is the run; chat, generate_content, text_completion are llm steps; execute_tool a tool step', () => {
    const root = span(
      'invoke_agent travel-agent',
      {
        [OtelAttr.genAiOperationName]: 'invoke_agent',
        [OtelAttr.genAiAgentName]: 'travel-agent',
        [OtelAttr.genAiAgentId]: 'agent-7',
        [OtelAttr.genAiConversationId]: 'conv-1',
        [OtelAttr.genAiProviderName]: 'openai',
      },
      '',
    );
    const under = (name: string, attrs: Record<string, AnyValue>, parent = root.spanId): OtlpSpan =>
      span(name, attrs, parent);
    const llm = (operation: string, model: string, provider: string): OtlpSpan =>
      under(`${operation} ${model}`, {
        [OtelAttr.genAiOperationName]: operation,
        [OtelAttr.genAiRequestModel]: model,
        [OtelAttr.genAiProviderName]: provider,
        [OtelAttr.genAiInputTokens]: 100,
        [OtelAttr.genAiOutputTokens]: 10,
      });
    const tool = under('execute_tool get_weather', {
      [OtelAttr.genAiOperationName]: 'execute_tool',
      [OtelAttr.genAiToolName]: 'get_weather',
      [OtelAttr.genAiToolCallId]: 'call_1',
      [OtelAttr.genAiToolCallArguments]: '{"city":"Oslo"}',
      [McpAttr.methodName]: 'tools/call',
    });
    // an MCP server's span below the tool call, without an operation of its own: part of the trace, not a step
    const served = under('tools/call get_weather', { [McpAttr.methodName]: 'tools/call' }, tool.spanId);
    const spans = [
      root,
      llm('chat', 'gpt-4o', 'openai'),
      llm('generate_content', 'gemini-2.0-flash', 'gcp.gemini'),
      llm('text_completion', 'llama-3.1-8b', 'ollama'),
      tool,
      served,
    ];
    const { spans: out } = normaliseRequest(request(spans), 'p', { nowMs: NOW_MS });
    expect(out.map((r) => [r.stepKind, r.stepName, r.isRunRoot])).toEqual([
      ['run', 'invoke_agent travel-agent', true],
      ['llm', 'chat gpt-4o', false],
      ['llm', 'generate_content gemini-2.0-flash', false],
      ['llm', 'text_completion llama-3.1-8b', false],
      ['tool', 'get_weather', false],
      ['', '', false],
    ]);
    expect(new Set(out.map((r) => r.runId))).toEqual(new Set([TRACE]));
    expect(out.slice(1, 4).map((r) => [r.model, r.provider, r.inputTokens, r.outputTokens])).toEqual([
      ['gpt-4o', 'openai', 100, 10],
      ['gemini-2.0-flash', 'gcp.gemini', 100, 10],
      ['llama-3.1-8b', 'ollama', 100, 10],
    ]);
    expect([out[4]!.toolName, out[4]!.toolArgsHash]).toEqual(['get_weather', argsHash('{"city":"Oslo"}')]);
  });
});

describe('OpenInference', () => {
  it('LLM spans: model, llm.system as the provider, token counts with cache reads, explicit cost', () => {
    const r = one(
      span('OpenAI Chat Completions', {
        [OpenInferenceAttr.spanKind]: 'LLM',
        [OpenInferenceAttr.modelName]: 'gpt-4o-mini',
        [OpenInferenceAttr.system]: 'openai',
        [OpenInferenceAttr.promptTokens]: 120,
        [OpenInferenceAttr.completionTokens]: 20,
        [OpenInferenceAttr.cacheReadTokens]: 100,
        [OpenInferenceAttr.costTotal]: 0.0012,
      }),
    );
    expect(pick(r)).toMatchObject({
      stepKind: 'llm',
      model: 'gpt-4o-mini',
      provider: 'openai',
      inputTokens: 120,
      outputTokens: 20,
      cachedInputTokens: 100,
      costUsd: 0.0012,
    });
  });

  it('sums llm.cost.prompt and llm.cost.completion when no total is given', () => {
    expect(
      one(
        span('llm', {
          [OpenInferenceAttr.spanKind]: 'LLM',
          [OpenInferenceAttr.costPrompt]: 0.25,
          [OpenInferenceAttr.costCompletion]: 0.5,
        }),
      ).costUsd,
    ).toBe(0.75);
  });

  it('TOOL spans: tool.name, else the span name; input.value hashed as the arguments', () => {
    const named = one(
      span('tool call', {
        [OpenInferenceAttr.spanKind]: 'TOOL',
        [OpenInferenceAttr.toolName]: 'get_weather',
        [OpenInferenceAttr.inputValue]: '{"city":"Paris"}',
      }),
    );
    expect([named.stepKind, named.toolName, named.stepName, named.toolArgsHash]).toEqual([
      'tool',
      'get_weather',
      'get_weather',
      argsHash('{"city":"Paris"}'),
    ]);
    const unnamed = one(
      span('get_weather', { [OpenInferenceAttr.spanKind]: 'tool', [OpenInferenceAttr.inputValue]: 'Paris' }),
    );
    expect([unnamed.stepKind, unnamed.toolName, unnamed.toolArgsHash]).toEqual([
      'tool',
      'get_weather',
      argsHash('Paris'),
    ]);
  });

  it('AGENT is the run at the root, a handoff below; retrievers, evaluators and guardrails map; CHAIN is no step', () => {
    expect(one(span('agent', { [OpenInferenceAttr.spanKind]: 'AGENT' }, '')).stepKind).toBe('run');
    expect(one(span('agent', { [OpenInferenceAttr.spanKind]: 'AGENT' })).stepKind).toBe('handoff');
    expect(one(span('r', { [OpenInferenceAttr.spanKind]: 'RETRIEVER' })).stepKind).toBe('retrieval');
    expect(one(span('e', { [OpenInferenceAttr.spanKind]: 'EVALUATOR' })).stepKind).toBe('validate');
    expect(one(span('g', { [OpenInferenceAttr.spanKind]: 'GUARDRAIL' })).stepKind).toBe('validate');
    expect(one(span('c', { [OpenInferenceAttr.spanKind]: 'CHAIN' })).stepKind).toBe('');
    // a value shaped like an Object.prototype key is no kind
    expect(one(span('c', { [OpenInferenceAttr.spanKind]: 'constructor' })).stepKind).toBe('');
  });
});

describe('Vercel AI SDK', () => {
  it('legacy ai.* spans: doGenerate is the llm step with ai.usage.* (cached input too); the outer ai.generateText is no step', () => {
    const inner = one(
      span('ai.generateText.doGenerate', {
        [VercelAiAttr.operationId]: 'ai.generateText.doGenerate',
        [VercelAiAttr.modelId]: 'gpt-4o-mini',
        [VercelAiAttr.modelProvider]: 'openai.chat',
        [VercelAiAttr.promptTokens]: 10,
        [VercelAiAttr.completionTokens]: 5,
        [VercelAiAttr.cachedInputTokens]: 4,
      }),
    );
    expect(pick(inner)).toMatchObject({
      stepKind: 'llm',
      stepName: 'ai.generateText.doGenerate',
      model: 'gpt-4o-mini',
      provider: 'openai.chat',
      inputTokens: 10,
      outputTokens: 5,
      cachedInputTokens: 4,
    });
    const outer = one(span('ai.generateText', { [VercelAiAttr.inputTokens]: 20, [VercelAiAttr.outputTokens]: 10 }, ''));
    expect([outer.stepKind, outer.isRunRoot, outer.inputTokens]).toEqual(['', true, 20]);
    expect(one(span('ai.streamText.doStream', {})).stepKind).toBe('llm');
    expect(one(span('ai.embedMany.doEmbed', {})).stepKind).toBe('retrieval');
  });

  it('GenAI-style attributes on the same spans take precedence (gen_ai.usage.* over ai.usage.*)', () => {
    const r = one(
      span('ai.generateText.doGenerate', {
        [VercelAiAttr.inputTokens]: 99,
        [OtelAttr.genAiInputTokens]: 100,
        [OtelAttr.genAiSystem]: 'mock-provider',
        [VercelAiAttr.modelProvider]: 'x',
      }),
    );
    expect([r.inputTokens, r.provider]).toEqual([100, 'mock-provider']);
  });

  it('ai.toolCall: tool name and a hash of ai.toolCall.args', () => {
    const r = one(
      span('ai.toolCall', {
        [VercelAiAttr.toolCallName]: 'getWeather',
        [VercelAiAttr.toolCallArgs]: '{"city":"Paris"}',
      }),
    );
    expect([r.stepKind, r.stepName, r.toolName, r.toolArgsHash]).toEqual([
      'tool',
      'getWeather',
      'getWeather',
      argsHash('{"city":"Paris"}'),
    ]);
  });
});

describe('OpenLLMetry / Traceloop', () => {
  it('workflow is the run at the root, task a custom step named by its entity, tool a tool step named by its entity', () => {
    expect(
      one(span('weather.workflow', { [TraceloopAttr.spanKind]: 'workflow', [TraceloopAttr.entityName]: 'weather' }, ''))
        .stepKind,
    ).toBe('run');
    const task = one(span('lookup.task', { [TraceloopAttr.spanKind]: 'task', [TraceloopAttr.entityName]: 'lookup' }));
    expect([task.stepKind, task.stepName]).toEqual(['custom', 'lookup']);
    const tool = one(
      span('get_weather.tool', {
        [TraceloopAttr.spanKind]: 'tool',
        [TraceloopAttr.entityName]: 'get_weather',
        [TraceloopAttr.entityInput]: '{"args":["Paris"]}',
      }),
    );
    expect([tool.stepKind, tool.stepName, tool.toolName, tool.toolArgsHash]).toEqual([
      'tool',
      'get_weather',
      'get_weather',
      argsHash('{"args":["Paris"]}'),
    ]);
  });

  it('older instrumentations: llm.usage.total_tokens next to the deprecated prompt/completion names adds nothing', () => {
    const r = one(
      span('openai.chat', {
        [OtelAttr.genAiOperationName]: 'chat',
        [OtelAttr.genAiPromptTokens]: 8,
        [OtelAttr.genAiCompletionTokens]: 2,
        [TraceloopAttr.totalTokens]: 10,
      }),
    );
    expect([r.inputTokens, r.outputTokens]).toEqual([8, 2]);
  });
});

describe('our own attributes', () => {
  it('telltale.* wins over every convention', () => {
    const r = one(
      span('x', {
        [TelltaleAttr.stepKind]: 'validate',
        [TelltaleAttr.stepName]: 'check',
        [TelltaleAttr.toolArgsHash]: 'abc',
        [TelltaleAttr.costUsd]: 1.5,
        [OpenInferenceAttr.spanKind]: 'LLM',
        [OpenInferenceAttr.costTotal]: 9,
      }),
    );
    expect([r.stepKind, r.stepName, r.toolArgsHash, r.costUsd]).toEqual(['validate', 'check', 'abc', 1.5]);
  });

  it('an empty value falls through to the next source; the last of a repeated name wins', () => {
    const s = span('chat', {
      [OtelAttr.genAiOperationName]: 'chat',
      [OtelAttr.genAiResponseModel]: '',
      [OtelAttr.genAiRequestModel]: 'gpt-4o',
    });
    s.attributes.push({ key: OtelAttr.genAiRequestModel, value: 'gpt-4o-mini' });
    expect(one(s).model).toBe('gpt-4o-mini');
  });
});

describe('helpers', () => {
  it('argsHash is 64-bit FNV-1a (known vectors), empty for non-strings', () => {
    expect(argsHash('a')).toBe('af63dc4c8601ec8c');
    expect(argsHash('{"city":"Paris"}')).toBe('6fd305557de5847b');
    expect(argsHash('héllo wörld 😀')).toBe('3e9e8d1460738707');
    expect(argsHash('')).toBe('');
    expect(argsHash(['x'])).toBe('');
  });

  it('stableSpanName strips ids and numbers, the same with the cache warm', () => {
    for (let i = 0; i < 2; i++) {
      expect(stableSpanName('fetch 123e4567-e89b-12d3-a456-426614174000 page 7')).toBe('fetch {id} page {n}');
      expect(stableSpanName('job deadbeefdeadbeef01')).toBe('job {id}');
    }
  });
});
