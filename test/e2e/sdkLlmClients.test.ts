import Anthropic from '@anthropic-ai/sdk';
import { BUNDLED_PRICES } from '@telltale/analytics';
import { createTelltale, createTracerProvider } from '@telltale/sdk';
import { instrumentAnthropic } from '@telltale/sdk/anthropic';
import { instrumentOpenAI } from '@telltale/sdk/openai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollUntil } from './harness/exportRunWithKey.js';
import type { ApiRun, ApiSpan } from './harness/interopApi.js';
import { ModelServer, RATE_LIMITED_MODEL, recording as llmFixture } from '@telltale/model-server';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

type PerMTok = { input: number; cached: number; output: number };

function bundledPrice(model: string): PerMTok {
  const p = BUNDLED_PRICES.find((x) => x.model === model);
  if (p === undefined) throw new Error(`no bundled price for ${model}`);
  return { input: p.inputPerMTok, cached: p.cachedInputPerMTok, output: p.outputPerMTok };
}

function costOf(u: { input: number; cached: number; output: number }, p: PerMTok): number {
  return ((u.input - u.cached) * p.input + u.cached * p.cached + u.output * p.output) / 1e6;
}

const chat = (llmFixture('openai-chat').body as { usage: unknown }).usage as {
  prompt_tokens: number;
  completion_tokens: number;
  prompt_tokens_details: { cached_tokens: number };
};
const claude = (llmFixture('anthropic-messages').body as { usage: unknown }).usage as {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
};

describe('instrumented openai / anthropic clients → real exporter → server → API cost', () => {
  let telltale: TelltaleProcess;
  let llm: ModelServer;
  beforeAll(async () => {
    [telltale, llm] = await Promise.all([TelltaleProcess.start(), ModelServer.start()]);
  });
  afterAll(async () => {
    await Promise.all([telltale.dispose(), llm.stop()]);
  });

  it('prices the recorded tokens exactly, streamed or not, and keeps a 429 as a failed llm step', async () => {
    const provider = createTracerProvider({ service: 'llm-clients', endpoint: telltale.url });
    const tt = createTelltale({ tracerProvider: provider });
    const openai = instrumentOpenAI(new OpenAI({ apiKey: 'sk-test', baseURL: `${llm.origin}/v1`, maxRetries: 0 }), {
      telltale: tt,
    });
    const anthropic = instrumentAnthropic(new Anthropic({ apiKey: 'sk-test', baseURL: llm.origin, maxRetries: 0 }), {
      telltale: tt,
    });
    const runId = await tt.run('support-agent', async (run) => {
      await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
      const stream = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [], stream: true });
      for await (const chunk of stream) expect(chunk.object).toBe('chat.completion.chunk');
      await anthropic.messages.create({ model: 'claude-sonnet-4-20250514', max_tokens: 64, messages: [] });
      await anthropic.messages.stream({ model: 'claude-sonnet-4-20250514', max_tokens: 64, messages: [] }).done();
      await openai.chat.completions.create({ model: RATE_LIMITED_MODEL, messages: [] }).catch(() => undefined);
      return run.runId;
    });
    await provider.forceFlush();
    await provider.shutdown();

    const { value: runs } = await pollUntil(
      () => telltale.getJson<{ runs: ApiRun[] }>('/api/v1/runs?limit=100').then((r) => r.body.runs),
      (rs) => rs.some((r) => r.runId === runId && r.spans === 6),
      20_000,
    );
    const runRow = runs.find((r) => r.runId === runId)!;
    const { body } = await telltale.getJson<{ spans: ApiSpan[] }>(`/api/v1/runs/${runId}`);
    const llmSpans = body.spans.filter((s) => s.stepKind === 'llm');
    expect(llmSpans).toHaveLength(5);

    const openAiUsage = {
      input: chat.prompt_tokens,
      cached: chat.prompt_tokens_details.cached_tokens,
      output: chat.completion_tokens,
    };
    const claudeUsage = {
      input: claude.input_tokens + claude.cache_read_input_tokens + claude.cache_creation_input_tokens,
      cached: claude.cache_read_input_tokens,
      output: claude.output_tokens,
    };
    const gptCost = costOf(openAiUsage, bundledPrice('gpt-4o-mini'));
    const claudeCost = costOf(claudeUsage, bundledPrice('claude-sonnet-4'));
    const gpt = llmSpans.filter((s) => s.model === 'gpt-4o-mini-2024-07-18');
    const sonnet = llmSpans.filter((s) => s.model === 'claude-sonnet-4-20250514');
    expect(gpt).toHaveLength(2);
    expect(sonnet).toHaveLength(2);
    for (const s of gpt) {
      expect([s.inputTokens, s.cachedInputTokens, s.outputTokens]).toEqual([
        openAiUsage.input,
        openAiUsage.cached,
        openAiUsage.output,
      ]);
    }
    for (const s of sonnet) {
      expect([s.inputTokens, s.cachedInputTokens, s.outputTokens]).toEqual([
        claudeUsage.input,
        claudeUsage.cached,
        claudeUsage.output,
      ]);
    }
    expect(runRow.costUsd).toBeCloseTo(2 * gptCost + 2 * claudeCost, 12);

    const limited = llmSpans.find((s) => s.stepName === `chat ${RATE_LIMITED_MODEL}`)!;
    expect(limited.status.code).toBe('error');
    expect((limited as ApiSpan & { errorType: string }).errorType).toBe('rate_limit');
  });
});
