import { createHash } from 'node:crypto';
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { OtelAttr, StepKind, TelltaleAttr } from '@telltale/semconv';
import { llmContent } from './llmContent.js';

/** Spans per export request: the OTel BatchSpanProcessor's default maxExportBatchSize. */
export const SPANS_PER_REQUEST = 512;

/**
 * Run ids are `run-<template:4 hex><run:4 hex>-<send:8 hex>`: fixed length, so
 * a send rewrites the last 8 characters in place (see PayloadPool).
 */
export const RUN_ID_SEND_PLACEHOLDER = '00000000';

/** One template export request: the exporter's bytes and what is in them. */
export interface PayloadTemplate {
  /** `ProtobufTraceSerializer.serializeRequest`: what `@opentelemetry/exporter-trace-otlp-proto` POSTs. */
  body: Uint8Array;
  spans: number;
  runs: number;
  /**
   * Spans the collector keeps content for: with `contentBytes`, the llm spans (their messages); without,
   * none (their `gen_ai.choice` event carries no message body, so it keeps no content row).
   */
  contentSpans: number;
  /** The ids in the bytes (hex trace ids, hex span ids, run id strings), for PayloadPool to locate. */
  traceIds: string[];
  spanIds: string[];
  runIds: string[];
}

/** A small deterministic PRNG (mulberry32), so a seed gives the same payload shapes. */
class Rng {
  constructor(private state: number) {}
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
}

const AGENTS = ['support-triage', 'refund-bot', 'code-review', 'research-assistant', 'sql-analyst', 'travel-planner'];
const MODELS: readonly (readonly [provider: string, model: string])[] = [
  ['openai', 'gpt-4.1-mini'],
  ['openai', 'gpt-4.1'],
  ['anthropic', 'claude-sonnet-4'],
  ['anthropic', 'claude-haiku-4'],
];
const TOOLS = ['search_kb', 'lookup_order', 'issue_refund', 'run_sql', 'fetch_url', 'send_email', 'read_file'];
const SIDE_EFFECT_TOOLS = new Set(['issue_refund', 'send_email']);

function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** A step of a run, before it becomes an OTel span. */
interface StepSpec {
  kind: StepKind;
  name: string;
  children: StepSpec[];
}

/**
 * The step tree of one run with exactly `spans` spans (≥ 8): a run root, then
 * iterations of plan (→ llm), act (→ 1–3 tool calls), llm, validate; the
 * remainder goes to extra tool calls of the last act.
 */
function runShape(rng: Rng, spans: number): StepSpec {
  const root: StepSpec = { kind: StepKind.run, name: 'run', children: [] };
  let count = 1;
  let lastAct: StepSpec | undefined;
  for (;;) {
    const tools = rng.int(1, 3);
    const size = 2 + 1 + tools + 1 + 1; // plan+llm, act+tools, llm, validate
    if (count + size > spans) break;
    const tool = (): StepSpec => ({ kind: StepKind.tool, name: rng.pick(TOOLS), children: [] });
    const act: StepSpec = { kind: StepKind.act, name: 'act', children: Array.from({ length: tools }, tool) };
    root.children.push(
      { kind: StepKind.plan, name: 'plan', children: [{ kind: StepKind.llm, name: 'chat', children: [] }] },
      act,
      { kind: StepKind.llm, name: 'chat', children: [] },
      { kind: StepKind.validate, name: 'validate', children: [] },
    );
    lastAct = act;
    count += size;
  }
  while (count < spans) {
    (lastAct ?? root).children.push({ kind: StepKind.tool, name: rng.pick(TOOLS), children: [] });
    count++;
  }
  return root;
}

/** Run sizes of 50–100 spans that add up to exactly `total`. */
function runSizes(rng: Rng, total: number): number[] {
  const sizes: number[] = [];
  let left = total;
  while (left > 150) {
    const n = rng.int(50, 100);
    sizes.push(n);
    left -= n;
  }
  if (left > 100) sizes.push(Math.floor(left / 2), left - Math.floor(left / 2));
  else sizes.push(left);
  return sizes;
}

interface RunContext {
  rng: Rng;
  tracer: Tracer;
  runId: string;
  agent: string;
  conversation: string;
  model: readonly [string, string];
  failed: boolean;
  /** Content for llm spans (its own PRNG, so the span shapes do not depend on it); undefined: none. */
  content: { rng: Rng; bytes: number } | undefined;
  /** llm spans emitted so far (with content, each makes a content row: see PayloadTemplate.contentSpans). */
  llmSpans: { n: number };
}

/** Emits one step and its children; returns the step's end time (ms). */
function emitStep(run: RunContext, step: StepSpec, parent: Context, startMs: number, attempt: number): number {
  const { rng, tracer } = run;
  const [provider, model] = run.model;
  const attrs: Attributes = {
    [TelltaleAttr.runId]: run.runId,
    [TelltaleAttr.stepKind]: step.kind,
    [TelltaleAttr.stepName]: step.kind === StepKind.run ? run.agent : `${run.agent}.${step.name}`,
    [OtelAttr.genAiAgentName]: run.agent,
    [OtelAttr.genAiConversationId]: run.conversation,
    'telltale.sdk.version': '0.1.0',
  };
  let kind = SpanKind.INTERNAL;
  let selfMs = rng.int(2, 40);
  switch (step.kind) {
    case StepKind.run:
      attrs[TelltaleAttr.runOutcome] = run.failed ? 'failure' : 'success';
      attrs['enduser.id'] = `user-${rng.int(1, 5000)}`;
      attrs['deployment.environment'] = 'production';
      attrs['app.request.channel'] = rng.pick(['chat', 'email', 'api']);
      break;
    case StepKind.plan:
    case StepKind.validate:
      attrs[TelltaleAttr.stateHash] = hash(`${run.runId}/${startMs}/state`);
      attrs[TelltaleAttr.stepAttempt] = attempt;
      attrs[TelltaleAttr.stepMaxAttempts] = 3;
      if (step.kind === StepKind.validate) attrs[TelltaleAttr.outputHash] = hash(`${run.runId}/${startMs}/out`);
      attrs['app.plan.steps'] = rng.int(1, 6);
      break;
    case StepKind.act:
      attrs[TelltaleAttr.stepAttempt] = attempt;
      attrs[TelltaleAttr.stepMaxAttempts] = 3;
      attrs['app.act.intent'] = rng.pick(['answer', 'lookup', 'refund', 'escalate']);
      attrs['app.act.tools_planned'] = step.children.length;
      break;
    case StepKind.tool: {
      kind = SpanKind.CLIENT;
      selfMs = rng.int(20, 800);
      attrs[TelltaleAttr.toolName] = step.name;
      attrs[OtelAttr.genAiToolName] = step.name;
      attrs[OtelAttr.genAiOperationName] = 'execute_tool';
      attrs[TelltaleAttr.toolArgsHash] = hash(`${step.name}:${rng.int(1, 200)}`);
      attrs[TelltaleAttr.stepSideEffect] = SIDE_EFFECT_TOOLS.has(step.name);
      attrs['gen_ai.tool.call.id'] = `call_${hash(`${run.runId}/${startMs}/${step.name}`)}`;
      attrs['server.address'] = `${step.name.replace('_', '-')}.internal`;
      attrs['app.tool.result_bytes'] = rng.int(100, 40_000);
      break;
    }
    case StepKind.llm: {
      kind = SpanKind.CLIENT;
      selfMs = rng.int(300, 4000);
      const input = rng.int(200, 12_000);
      attrs[OtelAttr.genAiOperationName] = 'chat';
      attrs[OtelAttr.genAiProviderName] = provider;
      attrs[OtelAttr.genAiRequestModel] = model;
      attrs[OtelAttr.genAiResponseModel] = `${model}-2026-10-01`;
      attrs[OtelAttr.genAiInputTokens] = input;
      attrs[OtelAttr.genAiOutputTokens] = rng.int(20, 1500);
      attrs[OtelAttr.genAiCacheReadInputTokens] = Math.floor(input * rng.next() * 0.6);
      attrs['gen_ai.request.temperature'] = 0.2;
      attrs['gen_ai.response.finish_reasons'] = ['stop'];
      if (run.content !== undefined) {
        const c = run.content;
        const { input: messages, output: answer } = llmContent(() => c.rng.next(), c.bytes, c.rng.pick(TOOLS));
        attrs[OtelAttr.genAiInputMessages] = messages;
        attrs[OtelAttr.genAiOutputMessages] = answer;
      }
      run.llmSpans.n++;
      break;
    }
    case StepKind.retrieval:
    case StepKind.handoff:
    case StepKind.guardrail:
    case StepKind.custom:
      break; // not in these runs
  }
  const span: Span = tracer.startSpan(
    step.kind === StepKind.run ? `run ${run.agent}` : `${step.kind} ${step.name}`,
    { kind, startTime: startMs, attributes: attrs },
    parent,
  );
  const ctx = trace.setSpan(parent, span);
  let t = startMs + rng.int(0, 3);
  for (const child of step.children) t = emitStep(run, child, ctx, t, 1) + rng.int(0, 5);
  const endMs = t + selfMs;
  if (step.kind === StepKind.llm) {
    span.addEvent('gen_ai.choice', { 'gen_ai.response.finish_reason': 'stop', index: 0 }, endMs - 1);
  }
  if (step.kind === StepKind.tool && rng.next() < 0.08) {
    span.recordException({ name: 'ToolTimeoutError', message: `${step.name} timed out after ${selfMs} ms` }, endMs);
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'tool timed out' });
  } else if (step.kind === StepKind.run && run.failed) {
    span.addEvent('telltale.guard.tripped', { reason: 'max_steps' }, endMs);
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'run failed' });
  } else if (step.kind === StepKind.validate) {
    span.addEvent('telltale.validation', { passed: !run.failed }, endMs);
  }
  span.end(endMs);
  return endMs;
}

/**
 * Export requests of realistic agent runs, made with the OpenTelemetry JS
 * SDK (BasicTracerProvider + in-memory exporter) and serialised by the
 * official OTLP/proto serializer: each request holds whole runs of 50–100
 * spans, 512 spans in all (~10–15 attributes per span, events on llm,
 * validate, failed tool and failed run spans). Timestamps lie in the minute
 * before `nowMs`. With `contentBytes` > 0 every llm span also carries about
 * that many bytes of content (`gen_ai.input.messages` and
 * `gen_ai.output.messages`, see llmContent); the spans' shapes and other
 * attributes are the same as without it.
 */
export function agentPayloads(opts: {
  templates: number;
  seed: number;
  nowMs?: number;
  contentBytes?: number;
}): PayloadTemplate[] {
  const rng = new Rng(opts.seed);
  const contentBytes = opts.contentBytes ?? 0;
  const content = contentBytes > 0 ? { rng: new Rng(opts.seed ^ 0x5eed), bytes: contentBytes } : undefined;
  const nowMs = opts.nowMs ?? Date.now();
  const exporter = new InMemorySpanExporter();
  const out: PayloadTemplate[] = [];
  for (let t = 0; t < opts.templates; t++) {
    const service = `bench-agent-${t % 4}`;
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes({
        [OtelAttr.serviceName]: service,
        'service.version': '1.4.2',
        'deployment.environment.name': 'production',
        'host.name': `worker-${t % 8}`,
      }),
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    const tracer = provider.getTracer('@telltale/sdk', '0.1.0');
    const runIds: string[] = [];
    const llmSpans = { n: 0 };
    const sizes = runSizes(rng, SPANS_PER_REQUEST);
    sizes.forEach((size, r) => {
      const runId = `run-${t.toString(16).padStart(4, '0')}${r.toString(16).padStart(4, '0')}-${RUN_ID_SEND_PLACEHOLDER}`;
      runIds.push(runId);
      const run: RunContext = {
        rng,
        tracer,
        runId,
        agent: rng.pick(AGENTS),
        conversation: `conv-${hash(`${t}/${r}`)}`,
        model: rng.pick(MODELS),
        failed: rng.next() < 0.15,
        content,
        llmSpans,
      };
      emitStep(run, runShape(rng, size), ROOT_CONTEXT, nowMs - 60_000 + rng.int(0, 30_000), 1);
    });
    const spans: ReadableSpan[] = exporter.getFinishedSpans();
    exporter.reset();
    if (spans.length !== SPANS_PER_REQUEST)
      throw new Error(`template ${t} has ${spans.length} spans, expected ${SPANS_PER_REQUEST}`);
    const body = ProtobufTraceSerializer.serializeRequest(spans);
    if (body === undefined) throw new Error('the OTLP serializer returned nothing');
    out.push({
      body,
      spans: spans.length,
      runs: runIds.length,
      contentSpans: content === undefined ? 0 : llmSpans.n,
      traceIds: [...new Set(spans.map((s) => s.spanContext().traceId))],
      spanIds: spans.map((s) => s.spanContext().spanId),
      runIds,
    });
  }
  return out;
}
