import { context, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import { SpanAttributes, TraceloopSpanKindValues } from '@traceloop/ai-semantic-conventions';
import { OpenAIInstrumentation } from '@traceloop/instrumentation-openai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countedUsage, costOf, listRuns, listSessions, runSpans, setPrice, stepsOf } from './harness/interopApi.js';
import { FakeOpenAiServer } from './harness/FakeOpenAiServer.js';
import { InteropTracing } from './harness/InteropTracing.js';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

const MODEL = 'gpt-4o-mini-2024-07-18';
const PRICE = { input: 0.15, cached: 0.075, output: 0.6 };

/**
 * A decorated function's span as the Traceloop SDK's `withWorkflow` /
 * `withTask` / `withTool` write it (`<name>.<kind>`, traceloop.span.kind,
 * traceloop.entity.*, association properties), with the attribute names of
 * @traceloop/ai-semantic-conventions; the SDK itself would pull in every
 * instrumentation it ships, so the test writes these few spans itself.
 */
async function withEntity<T>(
  tracer: Tracer,
  kind: TraceloopSpanKindValues,
  name: string,
  input: unknown[],
  fn: () => Promise<T>,
  association: Record<string, string> = {},
): Promise<T> {
  const attributes: Record<string, string> = {
    [SpanAttributes.TRACELOOP_SPAN_KIND]: kind,
    [SpanAttributes.TRACELOOP_ENTITY_NAME]: name,
    [SpanAttributes.TRACELOOP_ENTITY_PATH]: kind === TraceloopSpanKindValues.WORKFLOW ? '' : name,
    [SpanAttributes.TRACELOOP_ENTITY_INPUT]: JSON.stringify({ args: input, kwargs: {} }),
  };
  for (const [key, value] of Object.entries(association))
    attributes[`${SpanAttributes.TRACELOOP_ASSOCIATION_PROPERTIES}.${key}`] = value;
  return tracer.startActiveSpan(`${name}.${kind}`, { attributes }, async (span) => {
    try {
      const out = await fn();
      span.setAttribute(SpanAttributes.TRACELOOP_ENTITY_OUTPUT, JSON.stringify(out));
      return out;
    } catch (err) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
      throw err;
    } finally {
      span.end();
    }
  });
}

describe('OpenLLMetry (@traceloop/instrumentation-openai around the official openai client, Traceloop workflow/task/tool spans) → Telltale', () => {
  let telltale: TelltaleProcess;
  let tracing: InteropTracing;
  let fake: FakeOpenAiServer;

  beforeAll(async () => {
    telltale = await TelltaleProcess.start();
    await setPrice(telltale, MODEL, PRICE);
    fake = await FakeOpenAiServer.start(MODEL, [
      { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }], usage: { prompt: 120, completion: 20 } },
      { text: 'Sunny, 21 °C', usage: { prompt: 150, completion: 10 } },
    ]);
    tracing = new InteropTracing(telltale.url, 'openllmetry-weather');
    const instrumentation = new OpenAIInstrumentation({ traceContent: true });
    instrumentation.setTracerProvider(tracing.provider);
    instrumentation.manuallyInstrument(OpenAI);
    const client = new OpenAI({ apiKey: 'sk-test', baseURL: fake.baseUrl, maxRetries: 0 });
    const tracer = tracing.tracer('@traceloop/node-server-sdk');

    const getWeather = (city: string) =>
      withEntity(tracer, TraceloopSpanKindValues.TOOL, 'get_weather', [city], () =>
        Promise.resolve({ city, temperatureC: 21 }),
      );
    const formatAnswer = (text: string) =>
      withEntity(tracer, TraceloopSpanKindValues.TASK, 'format_answer', [text], () => Promise.resolve(text.trim()));
    const workflow = (question: string) =>
      withEntity(
        tracer,
        TraceloopSpanKindValues.WORKFLOW,
        'weather_workflow',
        [question],
        async () => {
          const first = await client.chat.completions.create({
            model: 'gpt-4o-mini',
            messages: [{ role: 'user', content: question }],
          });
          const call = first.choices[0]?.message.tool_calls?.[0];
          if (call?.type !== 'function') throw new Error('expected a tool call');
          const weather = await getWeather((JSON.parse(call.function.arguments) as { city: string }).city);
          const second = await client.chat.completions.create({
            model: 'gpt-4o-mini',
            messages: [
              { role: 'user', content: question },
              { role: 'assistant', content: JSON.stringify(weather) },
            ],
          });
          return formatAnswer(second.choices[0]?.message.content ?? '');
        },
        { session_id: 'thread-9' },
      );
    for (let i = 0; i < 2; i++)
      expect(await context.with(trace.deleteSpan(context.active()), () => workflow('Weather in Paris?'))).toBe(
        'Sunny, 21 °C',
      );
    await tracing.flush();
    tracing.recordFixture('openllmetry');
  });
  afterAll(async () => {
    await tracing.shutdown();
    await fake.close();
    await telltale.dispose();
  });

  it('shows each workflow as a run with llm, tool and task steps', async () => {
    expect(fake.calls).toBe(4);
    const runs = await listRuns(telltale, '&service=openllmetry-weather');
    expect(runs.map((r) => [r.name, r.outcome, r.steps, r.spans])).toEqual([
      ['weather_workflow.workflow', 'success', 4, 5],
      ['weather_workflow.workflow', 'success', 4, 5],
    ]);
    for (const run of runs) {
      const spans = await runSpans(telltale, run.runId);
      expect(stepsOf(spans).sort()).toEqual([
        'custom:format_answer',
        'llm:chat gpt-4o-mini',
        'llm:chat gpt-4o-mini',
        'run:weather_workflow',
        'tool:get_weather',
      ]);
      const llm = spans
        .filter((s) => s.stepKind === 'llm')
        .map((s) => [s.model, s.provider, s.inputTokens, s.outputTokens]);
      expect(llm.sort()).toEqual([
        [MODEL, 'openai', 120, 20],
        [MODEL, 'openai', 150, 10],
      ]);
    }
  });

  it('names tools by traceloop.entity.name and hashes traceloop.entity.input as the arguments', async () => {
    const runs = await listRuns(telltale, '&service=openllmetry-weather');
    const tools = (await Promise.all(runs.map((r) => runSpans(telltale, r.runId))))
      .flat()
      .filter((s) => s.stepKind === 'tool');
    expect(tools.map((s) => [s.name, s.toolName])).toEqual([
      ['get_weather.tool', 'get_weather'],
      ['get_weather.tool', 'get_weather'],
    ]);
    expect(tools[0]!.toolArgsHash).toMatch(/^[0-9a-f]{16}$/);
    expect(tools[1]!.toolArgsHash).toBe(tools[0]!.toolArgsHash);
  });

  it('prices gen_ai.usage.* once per call (gen_ai.usage.total_tokens adds nothing)', async () => {
    for (const run of await listRuns(telltale, '&service=openllmetry-weather')) {
      expect(countedUsage(await runSpans(telltale, run.runId))).toEqual({ input: 270, output: 30 });
      expect([run.inputTokens, run.outputTokens, run.unpricedSpans]).toEqual([270, 30, 0]);
      expect(run.costUsd).toBeCloseTo(costOf({ input: 270, cached: 0, output: 30 }, PRICE), 12);
    }
  });

  it('groups the runs by the session_id association property', async () => {
    const sessions = await listSessions(telltale);
    expect(sessions.map((s) => [s.sessionId, s.runs, s.successRuns, s.inputTokens, s.outputTokens])).toEqual([
      ['thread-9', 2, 2, 540, 60],
    ]);
  });
});
