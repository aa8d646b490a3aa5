import { OTLPTraceExporter as OtlpGrpcExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPTraceExporter as OtlpHttpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { CompressionAlgorithm } from '@opentelemetry/otlp-exporter-base';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import { createTelltale, createTracerProvider } from '@telltale/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

interface ApiSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  stepKind: string;
  stepName: string;
  attempt: number;
  toolName: string;
  toolArgsHash: string;
  model: string;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  status: { code: string; message: string };
  errorType: string;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
  attributes: Record<string, unknown>;
  events: { timeUnixNano: string; name: string; attributes: Record<string, unknown> }[];
}

class FlakyTool {
  calls = 0;
  constructor(private readonly failures: number) {}
  search(query: string): string[] {
    this.calls++;
    if (this.calls <= this.failures) throw Object.assign(new Error('rate limited'), { name: 'RateLimitError' });
    return [`result for ${query}`];
  }
}

/** A small agent: plan → tool (fails twice, then succeeds) → llm → validate → act with a side effect. */
async function sampleAgent(tt: ReturnType<typeof createTelltale>): Promise<string> {
  const flaky = new FlakyTool(2);
  return tt.run('support-agent', async (run) => {
    await tt.plan(
      'plan',
      (step) => {
        step.span.addEvent('plan.ready', { 'plan.steps': 3, 'plan.note': 'ünïcødé ✓' });
        return ['search', 'answer'];
      },
      { state: { ticket: 42 } },
    );
    const hits = await tt.tool('search', { query: 'refund policy', k: 3 }, (args) => flaky.search(args.query), {
      retry: { attempts: 3, backoff: { initialMs: 1 } },
    });
    const answer = await tt.llm('draft', { model: 'gpt-4o-mini', provider: 'openai' }, (step) => {
      step.recordUsage({ inputTokens: 1200, outputTokens: 300, costUsd: 0.00036 });
      step.setAttributes({ 'custom.flag': true, 'custom.ratio': 0.25, 'custom.count': 7, 'custom.list': ['a', 'b'] });
      return `answer using ${hits.length} hits`;
    });
    await tt.validate('check', () => answer.length > 0);
    await tt.act('send-reply', () => undefined, { sideEffect: true });
    return run.runId;
  });
}

function hrToNs([s, ns]: [number, number]): string {
  return (BigInt(s) * 1_000_000_000n + BigInt(ns)).toString();
}

function expectSpansMatch(exported: readonly ReadableSpan[], stored: readonly ApiSpan[]): void {
  expect(stored).toHaveLength(exported.length);
  for (const span of exported) {
    const ctx = span.spanContext();
    const got = stored.find((s) => s.spanId === ctx.spanId);
    expect(got, `span ${span.name} stored`).toBeDefined();
    expect(got!.traceId).toBe(ctx.traceId);
    expect(got!.parentSpanId).toBe(span.parentSpanContext?.spanId ?? '');
    expect(got!.name).toBe(span.name);
    expect(got!.startTimeUnixNano).toBe(hrToNs(span.startTime));
    expect(got!.endTimeUnixNano).toBe(hrToNs(span.endTime));
    expect(got!.status.code).toBe(['unset', 'ok', 'error'][span.status.code]);
    expect(got!.status.message).toBe(span.status.message ?? '');
    expect(got!.attributes).toEqual(span.attributes);
    expect(got!.events.map((e) => ({ name: e.name, time: e.timeUnixNano, attributes: e.attributes }))).toEqual(
      span.events.map((e) => ({ name: e.name, time: hrToNs(e.time), attributes: e.attributes ?? {} })),
    );
  }
}

describe.each([
  ['OTLP/HTTP protobuf', (t: TelltaleProcess): SpanExporter => new OtlpProtoExporter({ url: `${t.url}/v1/traces` })],
  ['OTLP/HTTP JSON', (t: TelltaleProcess): SpanExporter => new OtlpHttpJsonExporter({ url: `${t.url}/v1/traces` })],
  ['OTLP/gRPC', (t: TelltaleProcess): SpanExporter => new OtlpGrpcExporter({ url: `http://${t.grpcAddress}` })],
  [
    'OTLP/gRPC with gzip',
    (t: TelltaleProcess): SpanExporter =>
      new OtlpGrpcExporter({ url: `http://${t.grpcAddress}`, compression: CompressionAlgorithm.GZIP }),
  ],
])('SDK → official %s exporter → collector → ClickHouse → API', (_label, makeExporter) => {
  let telltale: TelltaleProcess;
  beforeAll(async () => {
    telltale = await TelltaleProcess.start();
  });
  afterAll(async () => {
    await telltale.dispose();
  });

  it('reads back every span with ids, ns timestamps, attributes, status, events and attempts intact', async () => {
    const memory = new InMemorySpanExporter();
    const provider = createTracerProvider({
      service: 'e2e-agent',
      exporter: makeExporter(telltale),
      spanProcessors: [new SimpleSpanProcessor(memory)],
    });
    const runId = await sampleAgent(createTelltale({ tracerProvider: provider }));
    await provider.forceFlush();
    const exported = [...memory.getFinishedSpans()]; // shutdown empties the in-memory exporter
    await provider.shutdown();
    expect(exported.length).toBe(8); // run, plan, 3 search attempts, llm, validate, act

    const { status, body } = await telltale.getJson<{ run: Record<string, unknown>; spans: ApiSpan[] }>(
      `/api/v1/runs/${runId}`,
    );
    expect(status).toBe(200);
    expectSpansMatch(exported, body.spans);

    const attempts = body.spans.filter((s) => s.stepKind === 'tool');
    expect(attempts.map((s) => [s.attempt, s.status.code, s.errorType])).toEqual([
      [1, 'error', 'RateLimitError'],
      [2, 'error', 'RateLimitError'],
      [3, 'ok', ''],
    ]);
    expect(new Set(attempts.map((s) => s.toolArgsHash)).size).toBe(1);
    expect(attempts[0]!.toolName).toBe('search');
    const llm = body.spans.find((s) => s.stepKind === 'llm')!;
    expect(llm).toMatchObject({ model: 'gpt-4o-mini', inputTokens: 1200, outputTokens: 300, costUsd: 0.00036 });
    expect(body.run).toMatchObject({
      runId,
      name: 'support-agent',
      service: 'e2e-agent',
      outcome: 'success',
      steps: 7,
      spans: 8,
    });

    const list = await telltale.getJson<{ runs: { runId: string }[]; total: number }>('/api/v1/runs');
    expect(list.body.runs.map((r) => r.runId)).toContain(runId);
  });
});
