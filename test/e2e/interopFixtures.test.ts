import { readFileSync } from 'node:fs';
import { decodeTraceRequestJson, normaliseRequest } from '@telltale/collector';
import type { SpanRecord } from '@telltale/store';
import { describe, expect, it } from 'vitest';
import { INTEROP_FIXTURES_DIR } from './harness/InteropTracing.js';

/**
 * The OTLP payloads the interop tests recorded from the real libraries
 * (test/fixtures/interop/*.json; re-record with TELLTALE_RECORD_FIXTURES=1
 * and the interop*.test.ts files), replayed through the normaliser alone:
 * the conventions stay covered without the libraries, and a change to the
 * tables that moves a step kind, a name, a token or a cost shows up here.
 */
interface Fixture {
  source: string;
  requests: unknown[];
}

function load(name: string): SpanRecord[] {
  const fixture = JSON.parse(readFileSync(new URL(`${name}.json`, INTEROP_FIXTURES_DIR), 'utf8')) as Fixture;
  const decoded = fixture.requests.map((r) => decodeTraceRequestJson(JSON.stringify(r)));
  // the recorded spans are old by now: check the time range against their own time
  let latestMs = 0;
  for (const r of decoded)
    for (const rs of r.resourceSpans)
      for (const ss of rs.scopeSpans)
        for (const s of ss.spans) latestMs = Math.max(latestMs, Number(s.startTimeUnixNano / 1_000_000n));
  const spans: SpanRecord[] = [];
  for (const request of decoded) {
    const result = normaliseRequest(request, 'fixtures', { nowMs: latestMs + 60_000 });
    expect(result.rejectedSpans).toBe(0);
    spans.push(...result.spans);
  }
  return spans;
}

/** 64-bit FNV-1a of the text, the reference way (BigInt): what the collector hashes tool arguments with. */
function fnv1a64(text: string): string {
  let h = 0xcbf29ce484222325n;
  for (let i = 0; i < text.length; i++) h = ((h ^ BigInt(text.charCodeAt(i))) * 0x100000001b3n) & 0xffffffffffffffffn;
  return h.toString(16).padStart(16, '0');
}

/** One line per span: what the normaliser made of it. */
function row(s: SpanRecord): string {
  const usage = s.inputTokens + s.outputTokens > 0 ? ` ${s.inputTokens}/${s.outputTokens}/${s.cachedInputTokens}` : '';
  const tool = s.toolName === '' ? '' : ` tool=${s.toolName}#${s.toolArgsHash}`;
  const model = s.model === '' ? '' : ` ${s.provider}:${s.model}`;
  return `${s.stepKind || '-'} ${JSON.stringify(s.stepName)}${s.isRunRoot ? ' root' : ''}${tool}${model}${usage}${s.costUsd === null ? '' : ` $${s.costUsd}`}`;
}

/** Per run: its spans' rows (sorted: spans that start in the same tick list in either order) and the usage the run counts. */
function byRun(
  spans: readonly SpanRecord[],
): Array<{ rows: string[]; counted: { input: number; output: number; cached: number } }> {
  const runs = new Map<string, SpanRecord[]>();
  for (const s of spans) runs.set(s.runId, [...(runs.get(s.runId) ?? []), s]);
  return [...runs.values()].map((run) => {
    // what the store counts (sqlParts AGGREGATE_KINDS): not run roots, handoffs or non-steps, whose usage repeats their children's
    const counted = run.filter((s) => !['', 'run', 'handoff'].includes(s.stepKind));
    return {
      rows: run.map(row).sort(),
      counted: {
        input: counted.reduce((n, s) => n + s.inputTokens, 0),
        output: counted.reduce((n, s) => n + s.outputTokens, 0),
        cached: counted.reduce((n, s) => n + s.cachedInputTokens, 0),
      },
    };
  });
}

describe('recorded interop payloads through the normaliser', () => {
  it('Vercel AI SDK 6: doGenerate / doStream llm steps, ai.toolCall tools, the outer ai.generateText / ai.streamText (totals) as non-step roots', () => {
    const runs = byRun(load('vercel-ai'));
    expect(runs).toHaveLength(3);
    const streamed = runs.pop()!;
    expect(streamed.rows).toEqual([
      '- "" root mock-provider:mock-weather-model 100/30/20',
      'llm "ai.streamText.doStream" mock-provider:mock-weather-model 100/30/20',
    ]);
    expect(streamed.counted).toEqual({ input: 100, output: 30, cached: 20 });
    for (const run of runs) {
      expect(run.rows).toEqual([
        '- "" root mock-provider:mock-weather-model 200/60/40',
        'llm "ai.generateText.doGenerate" mock-provider:mock-weather-model 100/30/20',
        'llm "ai.generateText.doGenerate" mock-provider:mock-weather-model 100/30/20',
        `tool "getWeather" tool=getWeather#${fnv1a64('{"city":"Paris"}')}`,
      ]);
      expect(run.counted).toEqual({ input: 200, output: 60, cached: 40 });
    }
  });

  it('OpenInference: AGENT root = run, LLM steps with llm.token_count.*, TOOL named by its span, input.value hashed', () => {
    const runs = byRun(load('openinference'));
    expect(runs.map((r) => r.rows)).toEqual([
      [
        'llm "OpenAI Chat Completions" openai:gpt-4o-mini-2024-07-18 120/20/100',
        'llm "OpenAI Chat Completions" openai:gpt-4o-mini-2024-07-18 150/10/0',
        'run "weather-agent" root',
        `tool "get_weather" tool=get_weather#${fnv1a64('Paris')}`,
      ],
      [
        'llm "OpenAI Chat Completions" openai:gpt-4o-mini-2024-07-18 120/20/100',
        'run "weather-agent" root',
        `tool "get_weather" tool=get_weather#${fnv1a64('Paris')}`,
      ],
    ]);
    expect(runs.map((r) => r.counted)).toEqual([
      { input: 270, output: 30, cached: 100 },
      { input: 120, output: 20, cached: 100 },
    ]);
  });

  it('OpenLLMetry: workflow root = run, task = custom, tool by traceloop.entity.name, chat spans with gen_ai.usage.*', () => {
    const runs = byRun(load('openllmetry'));
    expect(runs).toHaveLength(2);
    for (const run of runs) {
      expect(run.rows).toEqual([
        'custom "format_answer"',
        'llm "chat gpt-4o-mini" openai:gpt-4o-mini-2024-07-18 120/20/0',
        'llm "chat gpt-4o-mini" openai:gpt-4o-mini-2024-07-18 150/10/0',
        'run "weather_workflow" root',
        `tool "get_weather" tool=get_weather#${fnv1a64('{"args":["Paris"],"kwargs":{}}')}`,
      ]);
      expect(run.counted).toEqual({ input: 270, output: 30, cached: 0 });
    }
  });

  it('GenAI semconv: invoke_agent run and handoff (their totals not counted), deprecated names, create_agent, retried tool', () => {
    const runs = byRun(load('genai-semconv'));
    expect(runs).toHaveLength(2);
    for (const run of runs) {
      expect(run.rows).toEqual([
        'custom "create_agent booking-agent"',
        'handoff "invoke_agent booking-agent" 300/40/0',
        'llm "chat gpt-4o" openai:gpt-4o-2024-08-06 500/50/200',
        'llm "chat gpt-4o-mini" openai:gpt-4o-mini 300/40/0',
        'run "invoke_agent travel-planner" root 800/90/0',
        `tool "book_flight" tool=book_flight#${fnv1a64('{"flight":"AF22"}')}`,
        `tool "book_flight" tool=book_flight#${fnv1a64('{"flight":"AF22"}')}`,
        `tool "search_flights" tool=search_flights#${fnv1a64('{"from":"CDG","to":"JFK"}')}`,
      ]);
      expect(run.counted).toEqual({ input: 800, output: 90, cached: 200 });
    }
  });
});
