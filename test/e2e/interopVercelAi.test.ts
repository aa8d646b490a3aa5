import { generateText, simulateReadableStream, stepCountIs, streamText, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { countedUsage, costOf, listRuns, listSessions, runSpans, setPrice, stepsOf } from './harness/interopApi.js';
import { InteropTracing } from './harness/InteropTracing.js';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

const MODEL = 'mock-weather-model';
const PRICE = { input: 1, cached: 0.5, output: 2 };
/** Usage of every model call: 100 input tokens of which 20 cached, 30 output of which 10 reasoning. */
const CALL_USAGE = {
  inputTokens: { total: 100, noCache: 80, cacheRead: 20, cacheWrite: undefined },
  outputTokens: { total: 30, text: 20, reasoning: 10 },
};

/** The AI SDK's mock model streaming one answer, with the usage in its finish part. */
function streamingModel(): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    provider: 'mock-provider',
    modelId: MODEL,
    doStream: () =>
      Promise.resolve({
        stream: simulateReadableStream({
          chunks: [
            { type: 'stream-start' as const, warnings: [] },
            { type: 'text-start' as const, id: 't1' },
            { type: 'text-delta' as const, id: 't1', delta: 'Bonjour' },
            { type: 'text-end' as const, id: 't1' },
            { type: 'finish' as const, finishReason: { unified: 'stop' as const, raw: 'stop' }, usage: CALL_USAGE },
          ],
        }),
      }),
  });
}

/** The AI SDK's mock model: asks for the weather tool on the first call of a run, answers on the second. */
function weatherModel(): MockLanguageModelV3 {
  let calls = 0;
  return new MockLanguageModelV3({
    provider: 'mock-provider',
    modelId: MODEL,
    doGenerate: () => {
      const first = calls++ % 2 === 0;
      return Promise.resolve(
        first
          ? {
              content: [
                {
                  type: 'tool-call' as const,
                  toolCallId: `call-${calls}`,
                  toolName: 'getWeather',
                  input: JSON.stringify({ city: 'Paris' }),
                },
              ],
              finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
              usage: CALL_USAGE,
              warnings: [],
            }
          : {
              content: [{ type: 'text' as const, text: 'Sunny, 21 °C' }],
              finishReason: { unified: 'stop' as const, raw: 'stop' },
              usage: CALL_USAGE,
              warnings: [],
            },
      );
    },
  });
}

describe('Vercel AI SDK (ai 6, MockLanguageModelV3, telemetry on) → official OTLP exporter → Telltale', () => {
  let telltale: TelltaleProcess;
  let tracing: InteropTracing;

  beforeAll(async () => {
    telltale = await TelltaleProcess.start();
    await setPrice(telltale, MODEL, PRICE);
    // SimpleSpanProcessor: each span is its own export request, children before their parents (late parents)
    tracing = new InteropTracing(telltale.url, 'vercel-weather', { simple: true });
    const model = weatherModel();
    const getWeather = tool({
      description: 'Current weather in a city',
      inputSchema: z.object({ city: z.string() }),
      execute: ({ city }) => Promise.resolve({ city, temperatureC: 21 }),
    });
    for (let run = 0; run < 2; run++) {
      const result = await generateText({
        model,
        prompt: 'What is the weather in Paris?',
        tools: { getWeather },
        stopWhen: stepCountIs(3),
        experimental_telemetry: {
          isEnabled: true,
          functionId: 'weather-agent',
          metadata: { sessionId: 'chat-42' },
          tracer: tracing.tracer('ai'),
        },
      });
      expect(result.text).toBe('Sunny, 21 °C');
    }
    // a streamed call in a session of its own
    const streamed = streamText({
      model: streamingModel(),
      prompt: 'Say hello in French',
      experimental_telemetry: {
        isEnabled: true,
        functionId: 'greeter',
        metadata: { sessionId: 'chat-43' },
        tracer: tracing.tracer('ai'),
      },
    });
    expect(await streamed.text).toBe('Bonjour');
    await tracing.flush();
    tracing.recordFixture('vercel-ai');
  });
  afterAll(async () => {
    await tracing.shutdown();
    await telltale.dispose();
  });

  it('shows one run per generateText call, with its llm and tool steps', async () => {
    const runs = (await listRuns(telltale, '&service=vercel-weather')).filter((r) => r.name === 'ai.generateText');
    expect(runs).toHaveLength(2);
    for (const run of runs) {
      expect(run).toMatchObject({
        name: 'ai.generateText',
        service: 'vercel-weather',
        outcome: 'success',
        steps: 3,
        spans: 4,
        sessionId: 'chat-42',
      });
      const spans = await runSpans(telltale, run.runId);
      // as a multiset: the tool call starts in the millisecond its doGenerate ended, so the two may list in either order
      expect(stepsOf(spans).sort()).toEqual([
        'llm:ai.generateText.doGenerate',
        'llm:ai.generateText.doGenerate',
        'tool:getWeather',
      ]);
      const llm = spans.filter((s) => s.stepKind === 'llm');
      expect(
        llm.map((s) => [
          s.model,
          s.provider,
          s.inputTokens,
          s.outputTokens,
          s.cachedInputTokens,
          s.reasoningTokens,
          s.sessionId,
        ]),
      ).toEqual([
        [MODEL, 'mock-provider', 100, 30, 20, 10, 'chat-42'],
        [MODEL, 'mock-provider', 100, 30, 20, 10, 'chat-42'],
      ]);
    }
  });

  it('shows a streamText call as a run with its doStream llm step and the usage of its finish part', async () => {
    const [run] = (await listRuns(telltale, '&service=vercel-weather')).filter((r) => r.name === 'ai.streamText');
    expect(run).toMatchObject({
      outcome: 'success',
      steps: 1,
      spans: 2,
      inputTokens: 100,
      outputTokens: 30,
      cachedInputTokens: 20,
      sessionId: 'chat-43',
    });
    expect(run!.costUsd).toBeCloseTo(costOf({ input: 100, cached: 20, output: 30 }, PRICE), 12);
    const spans = await runSpans(telltale, run!.runId);
    expect(stepsOf(spans)).toEqual(['llm:ai.streamText.doStream']);
  });

  it('records the tool call with its name and an arguments hash that repeats across runs', async () => {
    const runs = (await listRuns(telltale, '&service=vercel-weather')).filter((r) => r.name === 'ai.generateText');
    const tools = (await Promise.all(runs.map((r) => runSpans(telltale, r.runId))))
      .flat()
      .filter((s) => s.stepKind === 'tool');
    expect(tools.map((s) => s.toolName)).toEqual(['getWeather', 'getWeather']);
    expect(tools[0]!.toolArgsHash).toMatch(/^[0-9a-f]{16}$/);
    expect(tools[1]!.toolArgsHash).toBe(tools[0]!.toolArgsHash);
  });

  it('counts the tokens and cost of the doGenerate calls once, not again for ai.generateText carrying their totals', async () => {
    const runs = (await listRuns(telltale, '&service=vercel-weather')).filter((r) => r.name === 'ai.generateText');
    for (const run of runs) {
      const spans = await runSpans(telltale, run.runId);
      const outer = spans.find((s) => s.name === 'ai.generateText')!;
      expect([outer.stepKind, outer.inputTokens, outer.outputTokens]).toEqual(['', 200, 60]); // the totals are there…
      expect(countedUsage(spans)).toEqual({ input: 200, output: 60 });
      // …and the run counts them once
      expect([run.inputTokens, run.outputTokens, run.cachedInputTokens, run.unpricedSpans]).toEqual([200, 60, 40, 0]);
      expect(run.costUsd).toBeCloseTo(costOf({ input: 200, cached: 40, output: 60 }, PRICE), 12);
    }
  });

  it('groups runs into the sessions named in the telemetry metadata', async () => {
    const sessions = await listSessions(telltale);
    expect(sessions.map((s) => [s.sessionId, s.runs, s.successRuns, s.inputTokens, s.outputTokens])).toEqual([
      ['chat-43', 1, 1, 100, 30],
      ['chat-42', 2, 2, 400, 120],
    ]);
    expect(sessions[1]!.costUsd).toBeCloseTo(2 * costOf({ input: 200, cached: 40, output: 60 }, PRICE), 12);
    expect((await listRuns(telltale, '&session=chat-42')).length).toBe(2);
  });
});
