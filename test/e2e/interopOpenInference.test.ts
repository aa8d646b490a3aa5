import { setSession, traceAgent, traceTool } from '@arizeai/openinference-core';
import { OpenAIInstrumentation } from '@arizeai/openinference-instrumentation-openai';
import { context } from '@opentelemetry/api';
import OpenAI from 'openai';
import * as openaiModule from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countedUsage, costOf, listRuns, listSessions, runSpans, setPrice, stepsOf } from './harness/interopApi.js';
import { FakeOpenAiServer } from './harness/FakeOpenAiServer.js';
import { InteropTracing } from './harness/InteropTracing.js';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

const MODEL = 'gpt-4o-mini-2024-07-18';
const PRICE = { input: 0.15, cached: 0.075, output: 0.6 };
const TOOL_CALL = { prompt: 120, completion: 20, cached: 100 };
const ANSWER = { prompt: 150, completion: 10, reasoning: 4 };

describe('OpenInference (@arizeai/openinference-instrumentation-openai around the official openai client) → Telltale', () => {
  let telltale: TelltaleProcess;
  let tracing: InteropTracing;
  let fake: FakeOpenAiServer;

  beforeAll(async () => {
    telltale = await TelltaleProcess.start();
    await setPrice(telltale, MODEL, PRICE);
    fake = await FakeOpenAiServer.start(MODEL, [
      { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }], usage: TOOL_CALL },
      { text: 'Sunny, 21 °C', usage: ANSWER },
    ]);
    tracing = new InteropTracing(telltale.url, 'oi-weather');
    const instrumentation = new OpenAIInstrumentation({ tracerProvider: tracing.provider });
    instrumentation.manuallyInstrument(
      openaiModule as unknown as Parameters<typeof instrumentation.manuallyInstrument>[0],
    );
    const client = new OpenAI({ apiKey: 'sk-test', baseURL: fake.baseUrl, maxRetries: 0 });
    const tracer = tracing.tracer('weather-agent');

    let failNext = false;
    const getWeather = traceTool(
      (city: string) => {
        if (failNext) throw new Error('weather service unavailable');
        return Promise.resolve({ city, temperatureC: 21 });
      },
      { name: 'get_weather', tracer },
    );
    const agent = traceAgent(
      async (question: string) => {
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
        return second.choices[0]?.message.content ?? '';
      },
      { name: 'weather-agent', tracer },
    );

    await context.with(setSession(context.active(), { sessionId: 'support-7' }), async () => {
      expect(await agent('Weather in Paris?')).toBe('Sunny, 21 °C');
      failNext = true;
      await expect(agent('Weather in Paris?')).rejects.toThrow('weather service unavailable');
    });
    await tracing.flush();
    tracing.recordFixture('openinference');
  });
  afterAll(async () => {
    await tracing.shutdown();
    await fake.close();
    await telltale.dispose();
  });

  it('shows each AGENT span as a run (success, then failure) with its LLM and TOOL steps', async () => {
    expect(fake.calls).toBe(3);
    const runs = await listRuns(telltale, '&service=oi-weather');
    expect(runs.map((r) => [r.name, r.outcome, r.steps, r.spans])).toEqual([
      ['weather-agent', 'failure', 2, 3],
      ['weather-agent', 'success', 3, 4],
    ]);
    const ok = await runSpans(telltale, runs[1]!.runId);
    // (as a multiset: spans of one run that start within the same clock tick may list in either order)
    expect(stepsOf(ok).sort()).toEqual([
      'llm:OpenAI Chat Completions',
      'llm:OpenAI Chat Completions',
      'run:weather-agent',
      'tool:get_weather',
    ]);
    const llm = ok
      .filter((s) => s.stepKind === 'llm')
      .map((s) => [s.model, s.provider, s.inputTokens, s.outputTokens, s.cachedInputTokens]);
    expect(llm.sort()).toEqual([
      [MODEL, 'openai', 120, 20, 100],
      [MODEL, 'openai', 150, 10, 0],
    ]);
    const failed = await runSpans(telltale, runs[0]!.runId);
    expect(failed.filter((s) => s.stepKind === 'tool').map((s) => s.status.code)).toEqual(['error']);
  });

  it('names the tool from the TOOL span and hashes its input.value as the arguments, the same in both runs', async () => {
    const runs = await listRuns(telltale, '&service=oi-weather');
    const tools = (await Promise.all(runs.map((r) => runSpans(telltale, r.runId))))
      .flat()
      .filter((s) => s.stepKind === 'tool');
    expect(tools.map((s) => s.toolName)).toEqual(['get_weather', 'get_weather']);
    expect(tools[0]!.toolArgsHash).toMatch(/^[0-9a-f]{16}$/);
    expect(tools[1]!.toolArgsHash).toBe(tools[0]!.toolArgsHash);
  });

  it('prices llm.token_count.* (cache reads at the cache price) and counts each call once', async () => {
    const [failed, ok] = await listRuns(telltale, '&service=oi-weather');
    expect(countedUsage(await runSpans(telltale, ok!.runId))).toEqual({ input: 270, output: 30 });
    expect([ok!.inputTokens, ok!.outputTokens, ok!.cachedInputTokens, ok!.unpricedSpans]).toEqual([270, 30, 100, 0]);
    expect(ok!.costUsd).toBeCloseTo(costOf({ input: 270, cached: 100, output: 30 }, PRICE), 12);
    expect([failed!.inputTokens, failed!.outputTokens, failed!.cachedInputTokens]).toEqual([120, 20, 100]);
    expect(failed!.costUsd).toBeCloseTo(costOf({ input: 120, cached: 100, output: 20 }, PRICE), 12);
  });

  it('groups the runs by session.id', async () => {
    const sessions = await listSessions(telltale);
    expect(sessions.map((s) => [s.sessionId, s.runs, s.successRuns, s.inputTokens, s.agents])).toEqual([
      ['support-7', 2, 1, 390, ['weather-agent']],
    ]);
    expect((await listRuns(telltale, '&session=support-7')).map((r) => r.sessionId)).toEqual([
      'support-7',
      'support-7',
    ]);
  });
});
