import { SpanStatusCode } from '@opentelemetry/api';
import { OtelAttr, TelltaleAttr } from '@telltale/semconv';
import type { ReadableSpan, SpanExporter } from '@telltale/sdk';
import { describe, expect, it } from 'vitest';
import { runDemo } from './runDemo.js';

type ExportCallback = Parameters<SpanExporter['export']>[1];

/** Keeps every exported span, and keeps them after shutdown. */
class CollectingSpanExporter implements SpanExporter {
  readonly spans: ReadableSpan[] = [];

  export(spans: ReadableSpan[], done: ExportCallback): void {
    this.spans.push(...spans);
    done({ code: 0 });
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

const ENDS_AT = Date.UTC(2026, 10, 20, 12);

async function demo(
  runs: number,
  seed: number,
): Promise<{ spans: ReadableSpan[]; result: Awaited<ReturnType<typeof runDemo>> }> {
  const exporter = new CollectingSpanExporter();
  const result = await runDemo({
    endpoint: 'http://127.0.0.1:1',
    exporter,
    runs,
    seed,
    concurrency: 8,
    endsAt: ENDS_AT,
  });
  return { spans: exporter.spans, result };
}

const str = (s: ReadableSpan, key: string): string => String(s.attributes[key]);
const ms = ([sec, ns]: [number, number]): number => sec * 1000 + ns / 1e6;

function groupByRun(spans: ReadableSpan[]): Map<string, ReadableSpan[]> {
  const runs = new Map<string, ReadableSpan[]>();
  for (const s of spans) {
    const id = str(s, TelltaleAttr.runId);
    runs.set(id, [...(runs.get(id) ?? []), s]);
  }
  return runs;
}

function rootOf(spans: ReadableSpan[]): ReadableSpan {
  const roots = spans.filter((s) => s.attributes[TelltaleAttr.stepKind] === 'run');
  expect(roots).toHaveLength(1);
  return roots[0]!;
}

/** Largest number of items sharing one value of `key(item)`. */
function maxRepeat<T>(items: readonly T[], key: (item: T) => string): number {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return Math.max(0, ...counts.values());
}

describe('runDemo', () => {
  it('produces the requested runs, each a well-formed tree with a run id on every span', async () => {
    const onProgress: number[] = [];
    const exporter = new CollectingSpanExporter();
    const result = await runDemo({
      endpoint: 'http://127.0.0.1:1',
      exporter,
      runs: 40,
      seed: 1,
      onProgress: (d) => onProgress.push(d),
      endsAt: ENDS_AT,
    });
    expect(result.runs).toBe(40);
    expect(result.spans).toBe(exporter.spans.length);
    expect(onProgress).toHaveLength(40);
    expect(onProgress.at(-1)).toBe(40);

    const runs = groupByRun(exporter.spans);
    expect(runs.size).toBe(40);
    for (const spans of runs.values()) {
      const root = rootOf(spans);
      expect(root.parentSpanContext).toBeUndefined();
      const traceId = root.spanContext().traceId;
      expect(spans.every((s) => s.spanContext().traceId === traceId)).toBe(true);
      expect(spans.every((s) => ms(s.endTime) <= ENDS_AT && ms(s.startTime) >= ms(root.startTime))).toBe(true);
    }
    for (const s of exporter.spans) {
      expect(typeof s.attributes[TelltaleAttr.runId]).toBe('string');
      if (s.status.code === SpanStatusCode.ERROR) expect(typeof s.attributes[OtelAttr.errorType]).toBe('string');
    }
  });

  it('simulates the four agents and their failure modes', async () => {
    const { spans, result } = await demo(300, 42);
    const runs = [...groupByRun(spans).values()].map((s) => ({ spans: s, root: rootOf(s) }));
    const byAgent = (name: string) => runs.filter((r) => r.root.name === name);
    const services = new Set(spans.map((s) => String(s.resource.attributes[OtelAttr.serviceName])));
    expect(services).toEqual(new Set(['support-bot', 'research-assistant', 'ops-copilot', 'billing-ops']));
    expect(result.failedRuns).toBe(runs.filter((r) => r.root.status.code === SpanStatusCode.ERROR).length);

    // (a) six-step pipeline: successful runs have exactly six step groups; ~83% succeed.
    const pipeline = byAgent('triage-ticket');
    expect(pipeline.length).toBeGreaterThan(60);
    const ok = pipeline.filter((r) => r.root.status.code !== SpanStatusCode.ERROR);
    for (const r of ok) {
      const steps = r.spans.filter((s) => s.parentSpanContext?.spanId === r.root.spanContext().spanId);
      expect(new Set(steps.map((s) => str(s, TelltaleAttr.stepName))).size).toBe(6);
    }
    const success = ok.length / pipeline.length;
    expect(success).toBeGreaterThan(0.7);
    expect(success).toBeLessThan(0.97);

    // (b) research: retried rate limits, with attempt numbers and error.type.
    const attempts = spans.filter((s) => s.name === 'web_search' && s.attributes[TelltaleAttr.stepAttempt] === 2);
    expect(attempts.length).toBeGreaterThan(0);
    expect(spans.some((s) => s.attributes[OtelAttr.errorType] === 'rate_limit_exceeded')).toBe(true);
    expect(
      spans.filter((s) => s.name === 'web_search').every((s) => s.attributes[TelltaleAttr.stepMaxAttempts] === 4),
    ).toBe(true);

    // (c) loops: the same tool + args ≥ 3 times and the same plan state ≥ 3 times in one run.
    const loops = byAgent('resolve-incident').filter(
      (r) =>
        maxRepeat(
          r.spans.filter((s) => s.name === 'check_metrics'),
          (s) => str(s, TelltaleAttr.toolArgsHash),
        ) >= 3 &&
        maxRepeat(
          r.spans.filter((s) => s.attributes[TelltaleAttr.stepKind] === 'plan'),
          (s) => str(s, TelltaleAttr.stateHash),
        ) >= 3,
    );
    expect(loops.length).toBeGreaterThan(3);
    // each round checks the resolution again: the rounds' is-resolved spans are attempts 1, 2, 3… of one check
    for (const r of byAgent('resolve-incident')) {
      const checks = r.spans.filter((s) => s.name === 'is-resolved').sort((a, b) => ms(a.startTime) - ms(b.startTime));
      expect(checks.map((s) => s.attributes[TelltaleAttr.stepAttempt])).toEqual(checks.map((_, i) => i + 1));
    }

    // (d) partial execution: a failed refund run after a side effect succeeded.
    const partial = byAgent('process-refund').filter(
      (r) =>
        r.root.status.code === SpanStatusCode.ERROR &&
        r.spans.some((s) => s.attributes[TelltaleAttr.stepSideEffect] === true && s.status.code === SpanStatusCode.OK),
    );
    expect(partial.length).toBeGreaterThan(0);

    // Models: usage and cost on every successful llm span.
    const llm = spans.filter(
      (s) => s.attributes[TelltaleAttr.stepKind] === 'llm' && s.status.code === SpanStatusCode.OK,
    );
    expect(new Set(llm.map((s) => str(s, OtelAttr.genAiRequestModel)))).toEqual(
      new Set(['gpt-4o-mini', 'gpt-4o', 'claude-sonnet-4', 'claude-3-5-haiku']),
    );
    for (const s of llm) {
      expect(s.attributes[OtelAttr.genAiInputTokens]).toBeGreaterThan(0);
      expect(s.attributes[TelltaleAttr.costUsd]).toBeGreaterThan(0);
    }
    // Simulated time: model calls take seconds, not the microseconds the demo really spends.
    const sonnet = llm.filter((s) => s.name === 'synthesize').map((s) => ms(s.duration));
    expect(Math.min(...sonnet)).toBeGreaterThan(1_000);
  });

  it('keeps what the agents saw, redacted, and groups the support runs into conversations', async () => {
    const { spans } = await demo(300, 42);
    const json = (s: ReadableSpan, key: string): unknown => JSON.parse(str(s, key));
    const texts = (messages: unknown): { role: string; text: string }[] =>
      (messages as { role: string; parts: { content: string }[] }[]).map((m) => ({
        role: m.role,
        text: m.parts.map((p) => p.content).join(''),
      }));

    // every model call: its system and user messages, and the answer of each that got one
    const llm = spans.filter((s) => s.attributes[TelltaleAttr.stepKind] === 'llm');
    expect(new Set(llm.map((s) => s.name))).toEqual(
      new Set(['reason', 'draft-reply', 'plan-queries', 'synthesize', 'decide-refund']),
    );
    for (const s of llm) {
      expect(texts(json(s, OtelAttr.genAiInputMessages)).map((m) => m.role)).toEqual(['system', 'user']);
      if (s.status.code !== SpanStatusCode.ERROR)
        expect(texts(json(s, OtelAttr.genAiOutputMessages)).map((m) => m.role)).toEqual(['assistant']);
    }
    // a stuck incident run asks the same question and gets the same answer, round after round
    const asked = llm.filter((s) => s.name === 'reason').map((s) => str(s, OtelAttr.genAiInputMessages));
    expect(maxRepeat(asked, (text) => text)).toBeGreaterThanOrEqual(3);

    // the customer's e-mail address is replaced before the spans leave the process
    const drafts = llm.filter((s) => s.name === 'draft-reply');
    expect(drafts.length).toBeGreaterThan(50);
    for (const s of drafts) expect(texts(json(s, OtelAttr.genAiInputMessages))[1]!.text).toContain('[REDACTED:email]');
    expect(spans.some((s) => JSON.stringify(s.attributes).includes('@example.com'))).toBe(false);

    // a tool call's arguments and result, as the agent passed and got them
    const checks = spans.filter((s) => s.name === 'check_metrics');
    expect(checks.length).toBeGreaterThan(50);
    for (const s of checks) {
      expect(json(s, OtelAttr.genAiToolCallArguments)).toMatchObject({ metric: 'latency_p99' });
      expect(['ok', 'degraded']).toContain(json(s, OtelAttr.genAiToolCallResult));
    }

    // the support bot's runs, and only they, belong to conversations of a few runs each
    const roots = [...groupByRun(spans).values()].map(rootOf);
    const conversation = (r: ReadableSpan): unknown => r.attributes[OtelAttr.genAiConversationId];
    const support = roots.filter((r) => r.name === 'triage-ticket');
    expect(support.every((r) => typeof conversation(r) === 'string')).toBe(true);
    expect(roots.filter((r) => r.name !== 'triage-ticket').every((r) => conversation(r) === undefined)).toBe(true);
    const sizes = new Map<unknown, number>();
    for (const r of support) sizes.set(conversation(r), (sizes.get(conversation(r)) ?? 0) + 1);
    expect(sizes.size).toBe(20);
    expect(Math.max(...sizes.values())).toBeGreaterThanOrEqual(3);
  });

  it('is reproducible for a seed', async () => {
    const signature = (spans: ReadableSpan[]): string[] =>
      spans
        .map(
          (s) =>
            `${s.name}|${s.status.code}|${str(s, TelltaleAttr.stepAttempt)}|${ms(s.startTime)}|${ms(s.duration)}|${str(s, TelltaleAttr.toolArgsHash)}`,
        )
        .sort();
    const a = await demo(60, 7);
    const b = await demo(60, 7);
    const c = await demo(60, 8);
    expect(signature(a.spans)).toEqual(signature(b.spans));
    expect(signature(a.spans)).not.toEqual(signature(c.spans));
  });
});
