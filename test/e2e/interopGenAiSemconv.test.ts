import { SpanStatusCode, type Attributes, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter as OtlpGrpcExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { CompressionAlgorithm } from '@opentelemetry/otlp-exporter-base';
import { OtelAttr } from '@telltale/semconv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countedUsage, costOf, listRuns, listSessions, runSpans, setPrice, stepsOf } from './harness/interopApi.js';
import { InteropTracing } from './harness/InteropTracing.js';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

const BIG = 'gpt-4o-2024-08-06';
const SMALL = 'gpt-4o-mini';
const BIG_PRICE = { input: 2.5, cached: 1.25, output: 10 };
const SMALL_PRICE = { input: 0.15, cached: 0.075, output: 0.6 };

/** Runs `fn` in an active span with these attributes; an error ends it with ERROR status and error.type. */
function inSpan<T>(tracer: Tracer, name: string, attributes: Attributes, fn: () => T): T {
  return tracer.startActiveSpan(name, { attributes }, (span) => {
    try {
      return fn();
    } catch (err) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
      span.setAttribute(OtelAttr.errorType, (err as Error).name);
      throw err;
    } finally {
      span.end();
    }
  });
}

/**
 * An agent instrumented by hand with the OTel GenAI semantic conventions,
 * as any OTel SDK user (or framework) would: invoke_agent at the root with
 * the conversation id and usage totals, chat and execute_tool below, a
 * create_agent and a nested invoke_agent (a handoff, also carrying its
 * child's usage) whose chat still uses the deprecated names
 * (gen_ai.system, gen_ai.usage.prompt_tokens / completion_tokens), and a
 * tool that times out once and is retried.
 */
function travelAgent(tracer: Tracer, conversation: string): void {
  const agentAttrs = (agent: string): Attributes => ({
    [OtelAttr.genAiOperationName]: 'invoke_agent',
    [OtelAttr.genAiAgentName]: agent,
    [OtelAttr.genAiProviderName]: 'openai',
  });
  inSpan(
    tracer,
    'invoke_agent travel-planner',
    {
      ...agentAttrs('travel-planner'),
      [OtelAttr.genAiConversationId]: conversation,
      [OtelAttr.genAiInputTokens]: 800,
      [OtelAttr.genAiOutputTokens]: 90,
    },
    () => {
      inSpan(
        tracer,
        `chat ${'gpt-4o'}`,
        {
          [OtelAttr.genAiOperationName]: 'chat',
          [OtelAttr.genAiProviderName]: 'openai',
          [OtelAttr.genAiRequestModel]: 'gpt-4o',
          [OtelAttr.genAiResponseModel]: BIG,
          [OtelAttr.genAiInputTokens]: 500,
          [OtelAttr.genAiCacheReadInputTokens]: 200,
          [OtelAttr.genAiOutputTokens]: 50,
          [OtelAttr.genAiReasoningOutputTokens]: 12,
        },
        () => undefined,
      );
      inSpan(
        tracer,
        'execute_tool search_flights',
        {
          [OtelAttr.genAiOperationName]: 'execute_tool',
          [OtelAttr.genAiToolName]: 'search_flights',
          [OtelAttr.genAiToolCallArguments]: '{"from":"CDG","to":"JFK"}',
        },
        () => undefined,
      );
      inSpan(
        tracer,
        'create_agent booking-agent',
        { [OtelAttr.genAiOperationName]: 'create_agent', [OtelAttr.genAiAgentName]: 'booking-agent' },
        () => undefined,
      );
      inSpan(
        tracer,
        'invoke_agent booking-agent',
        { ...agentAttrs('booking-agent'), [OtelAttr.genAiInputTokens]: 300, [OtelAttr.genAiOutputTokens]: 40 },
        () => {
          inSpan(
            tracer,
            'chat gpt-4o-mini',
            {
              [OtelAttr.genAiOperationName]: 'chat',
              [OtelAttr.genAiSystem]: 'openai',
              [OtelAttr.genAiRequestModel]: SMALL,
              [OtelAttr.genAiPromptTokens]: 300,
              [OtelAttr.genAiCompletionTokens]: 40,
            },
            () => undefined,
          );
          const book = {
            [OtelAttr.genAiOperationName]: 'execute_tool',
            [OtelAttr.genAiToolName]: 'book_flight',
            [OtelAttr.genAiToolCallArguments]: '{"flight":"AF22"}',
          };
          try {
            inSpan(tracer, 'execute_tool book_flight', book, () => {
              throw Object.assign(new Error('booking API timed out'), { name: 'timeout' });
            });
          } catch {
            inSpan(tracer, 'execute_tool book_flight', book, () => undefined);
          }
        },
      );
    },
  );
}

describe('OTel GenAI semantic conventions by hand on the OTel JS SDK → official OTLP/gRPC exporter (gzip) → Telltale', () => {
  let telltale: TelltaleProcess;
  let tracing: InteropTracing;

  beforeAll(async () => {
    telltale = await TelltaleProcess.start();
    await setPrice(telltale, BIG, BIG_PRICE);
    await setPrice(telltale, SMALL, SMALL_PRICE);
    const exporter = new OtlpGrpcExporter({
      url: `http://${telltale.grpcAddress}`,
      compression: CompressionAlgorithm.GZIP,
    });
    tracing = new InteropTracing(telltale.url, 'genai-travel', { exporter });
    const tracer = tracing.tracer('travel-app');
    travelAgent(tracer, 'conv-1');
    travelAgent(tracer, 'conv-1');
    await tracing.flush();
    tracing.recordFixture('genai-semconv');
  });
  afterAll(async () => {
    await tracing.shutdown();
    await telltale.dispose();
  });

  it('makes the root invoke_agent the run and the nested one a handoff, with chat, execute_tool and create_agent steps', async () => {
    const runs = await listRuns(telltale, '&service=genai-travel');
    expect(runs.map((r) => [r.name, r.outcome, r.steps, r.spans, r.sessionId])).toEqual([
      ['invoke_agent travel-planner', 'success', 7, 8, 'conv-1'],
      ['invoke_agent travel-planner', 'success', 7, 8, 'conv-1'],
    ]);
    const spans = await runSpans(telltale, runs[0]!.runId);
    expect(stepsOf(spans).sort()).toEqual(
      [
        'run:invoke_agent travel-planner',
        'llm:chat gpt-4o',
        'tool:search_flights',
        'custom:create_agent booking-agent',
        'handoff:invoke_agent booking-agent',
        'llm:chat gpt-4o-mini',
        'tool:book_flight',
        'tool:book_flight',
      ].sort(),
    );
    const llm = spans
      .filter((s) => s.stepKind === 'llm')
      .map((s) => [s.model, s.provider, s.inputTokens, s.outputTokens, s.cachedInputTokens, s.reasoningTokens]);
    expect(llm.sort()).toEqual([
      [BIG, 'openai', 500, 50, 200, 12],
      [SMALL, 'openai', 300, 40, 0, 0], // deprecated gen_ai.system and prompt/completion tokens
    ]);
    const booking = spans.filter((s) => s.toolName === 'book_flight');
    expect(booking.map((s) => s.status.code).sort()).toEqual(['error', 'unset']);
    expect(new Set(booking.map((s) => s.toolArgsHash)).size).toBe(1);
  });

  it('counts the chat spans once, not again in the invoke_agent spans that carry their totals', async () => {
    const expected =
      costOf({ input: 500, cached: 200, output: 50 }, BIG_PRICE) +
      costOf({ input: 300, cached: 0, output: 40 }, SMALL_PRICE);
    for (const run of await listRuns(telltale, '&service=genai-travel')) {
      expect(countedUsage(await runSpans(telltale, run.runId))).toEqual({ input: 800, output: 90 });
      expect([run.inputTokens, run.outputTokens, run.cachedInputTokens, run.unpricedSpans]).toEqual([800, 90, 200, 0]);
      expect(run.costUsd).toBeCloseTo(expected, 12);
    }
  });

  it('groups the runs by gen_ai.conversation.id', async () => {
    const sessions = await listSessions(telltale);
    expect(sessions.map((s) => [s.sessionId, s.runs, s.inputTokens, s.agents])).toEqual([
      ['conv-1', 2, 1600, ['invoke_agent travel-planner']],
    ]);
  });
});
