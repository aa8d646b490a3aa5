import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { createTelltale, createTracerProvider, type TelltaleTracerProvider } from '@telltale/sdk';
import { OpenAIInstrumentation } from '@traceloop/instrumentation-openai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { costOf, listRuns, runSpans, setPrice } from './harness/interopApi.js';
import { FakeOpenAiServer } from './harness/FakeOpenAiServer.js';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

const MODEL = 'gpt-4o-mini-2024-07-18';
const PRICE = { input: 0.15, cached: 0.075, output: 0.6 };

/**
 * Our SDK's `llm` step, with the usage recorded by hand, around an OpenAI
 * client that OpenLLMetry also instruments: two nested llm spans report the
 * same call. The run counts it once, on the inner span.
 */
describe('@telltale/sdk llm step around an OpenLLMetry-instrumented client: one call, counted once', () => {
  let telltale: TelltaleProcess;
  let provider: TelltaleTracerProvider;
  let fake: FakeOpenAiServer;
  let runId = '';

  beforeAll(async () => {
    telltale = await TelltaleProcess.start();
    await setPrice(telltale, MODEL, PRICE);
    fake = await FakeOpenAiServer.start(MODEL, [{ text: 'Hi!', usage: { prompt: 150, completion: 10 } }]);
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    provider = createTracerProvider({ service: 'sdk-nested', endpoint: telltale.url });
    const instrumentation = new OpenAIInstrumentation();
    instrumentation.setTracerProvider(provider);
    instrumentation.manuallyInstrument(OpenAI);
    const client = new OpenAI({ apiKey: 'sk-test', baseURL: fake.baseUrl, maxRetries: 0 });
    const tt = createTelltale({ tracerProvider: provider });
    runId = await tt.run('greeter', async (run) => {
      await tt.llm('greet', { model: 'gpt-4o-mini', provider: 'openai' }, async (step) => {
        const res = await client.chat.completions.create({
          model: 'gpt-4o-mini',
          messages: [{ role: 'user', content: 'Hello' }],
        });
        step.recordUsage({
          inputTokens: res.usage?.prompt_tokens ?? 0,
          outputTokens: res.usage?.completion_tokens ?? 0,
        });
        return res.choices[0]?.message.content;
      });
      return run.runId;
    });
    await provider.forceFlush();
  });
  afterAll(async () => {
    await provider.shutdown();
    context.disable();
    await fake.close();
    await telltale.dispose();
  });

  it('keeps both llm spans, the usage on the inner one only', async () => {
    const spans = await runSpans(telltale, runId);
    const llm = spans
      .filter((s) => s.stepKind === 'llm')
      .map((s) => [s.name, s.parentSpanId === '' ? 'root' : 'child', s.inputTokens, s.outputTokens]);
    expect(llm.sort()).toEqual([
      ['chat gpt-4o-mini', 'child', 150, 10], // OpenLLMetry's span: the innermost
      ['greet', 'child', 0, 0], // the SDK step: same call, stored without usage
    ]);
    const [run] = (await listRuns(telltale, '&service=sdk-nested')).filter((r) => r.runId === runId);
    expect([run!.name, run!.outcome, run!.steps, run!.inputTokens, run!.outputTokens]).toEqual([
      'greeter',
      'success',
      2,
      150,
      10,
    ]);
    expect(run!.costUsd).toBeCloseTo(costOf({ input: 150, cached: 0, output: 10 }, PRICE), 12);
  });
});
