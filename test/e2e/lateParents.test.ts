import { randomBytes } from 'node:crypto';
import { OpenInferenceAttr, OtelAttr, TelltaleAttr, VercelAiAttr } from '@telltale/semconv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listRuns, runSpans, type ApiRun } from './harness/interopApi.js';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

/**
 * How a span finds its run (RELIABILITY-MATH "Run"): `telltale.run.id` when
 * the sender set it, else its trace id — decided per span by the collector
 * (normaliseRequest), never by looking for the parent. So a span whose
 * parent arrives later, in another request, or never, is stored in its run
 * at once; the run facts are finalised again whenever more of a run's spans
 * arrive (RunFacts), so the root arriving last turns an incomplete run into
 * a completed one. These tests send OTLP/JSON requests in a chosen order.
 */
type Attr = { key: string; value: { stringValue: string } | { intValue: string } | { doubleValue: number } };
interface JsonSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: Attr[];
  status: { code: number };
}

const hex = (bytes: number): string => randomBytes(bytes).toString('hex');
const str = (key: string, value: string): Attr => ({ key, value: { stringValue: value } });
const int = (key: string, value: number): Attr => ({ key, value: { intValue: String(value) } });
const dbl = (key: string, value: number): Attr => ({ key, value: { doubleValue: value } });
const T0 = BigInt(Date.now() - 60_000) * 1_000_000n;

function span(
  traceId: string,
  name: string,
  opts: { parent?: string; at: number; attributes?: Attr[]; status?: number; spanId?: string },
): JsonSpan {
  const start = T0 + BigInt(opts.at) * 1_000_000n;
  return {
    traceId,
    spanId: opts.spanId ?? hex(8),
    parentSpanId: opts.parent ?? '',
    name,
    kind: 1,
    startTimeUnixNano: String(start),
    endTimeUnixNano: String(start + 5_000_000n),
    attributes: opts.attributes ?? [],
    status: { code: opts.status ?? 1 },
  };
}

async function send(telltale: TelltaleProcess, spans: JsonSpan[]): Promise<void> {
  const body = {
    resourceSpans: [
      {
        resource: { attributes: [str('service.name', 'late-parents')] },
        scopeSpans: [{ scope: { name: 'late-parents-test' }, spans }],
      },
    ],
  };
  const res = await fetch(`${telltale.url}/v1/traces`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
}

async function run(telltale: TelltaleProcess, runId: string): Promise<ApiRun | undefined> {
  return (await listRuns(telltale, '&service=late-parents')).find((r) => r.runId === runId);
}

describe('orphans and late parents land in the right run', () => {
  let telltale: TelltaleProcess;
  beforeAll(async () => {
    // a trace-id run without its trace root is listed once quiet (docs/metrics.md): here at once
    telltale = await TelltaleProcess.start({ args: ['--orphan-quiet-seconds', '0'] });
  });
  afterAll(async () => {
    await telltale.dispose();
  });

  it('children first, the root in a later request: incomplete, then the same run completes, usage counted once', async () => {
    const trace = hex(16);
    const rootId = hex(8);
    // the invoke_agent root carries the totals of its chat child, and the chat its own cost
    const chat = span(trace, 'chat gpt-4o', {
      parent: rootId,
      at: 1,
      attributes: [
        str(OtelAttr.genAiOperationName, 'chat'),
        int(OtelAttr.genAiInputTokens, 100),
        int(OtelAttr.genAiOutputTokens, 10),
        dbl(OpenInferenceAttr.costTotal, 0.01),
      ],
    });
    const tool = span(trace, 'execute_tool search', {
      parent: rootId,
      at: 2,
      attributes: [str(OtelAttr.genAiOperationName, 'execute_tool'), str(OtelAttr.genAiToolName, 'search')],
    });
    await send(telltale, [chat, tool]);
    expect(await run(telltale, trace)).toMatchObject({
      outcome: 'incomplete',
      steps: 2,
      spans: 2,
      inputTokens: 100,
      costUsd: 0.01,
    });

    const root = span(trace, 'invoke_agent helper', {
      spanId: rootId,
      at: 0,
      attributes: [
        str(OtelAttr.genAiOperationName, 'invoke_agent'),
        int(OtelAttr.genAiInputTokens, 100),
        int(OtelAttr.genAiOutputTokens, 10),
        dbl(OpenInferenceAttr.costTotal, 0.01),
      ],
    });
    await send(telltale, [root]);
    // the runs list (run facts, finalised again) and the run's detail agree
    expect(await run(telltale, trace)).toMatchObject({
      name: 'invoke_agent helper',
      outcome: 'success',
      steps: 2,
      spans: 3,
      inputTokens: 100,
      outputTokens: 10,
      costUsd: 0.01,
    });
    const spans = await runSpans(telltale, trace);
    expect(
      spans.map((s) => [
        s.name,
        s.stepKind,
        s.parentSpanId === '' ? 'root' : s.parentSpanId === rootId ? 'child' : '?',
      ]),
    ).toEqual([
      ['invoke_agent helper', 'run', 'root'],
      ['chat gpt-4o', 'llm', 'child'],
      ['execute_tool search', 'tool', 'child'],
    ]);
  });

  it('a span whose parent never arrives still belongs to its trace run, under the root that did', async () => {
    const trace = hex(16);
    const rootId = hex(8);
    const lostMiddle = hex(8);
    await send(telltale, [
      span(trace, 'agent', { spanId: rootId, at: 0, attributes: [str(OpenInferenceAttr.spanKind, 'AGENT')] }),
      span(trace, 'llm call', {
        parent: lostMiddle,
        at: 1,
        attributes: [
          str(OpenInferenceAttr.spanKind, 'LLM'),
          int(OpenInferenceAttr.promptTokens, 40),
          dbl(OpenInferenceAttr.costTotal, 0.02),
        ],
      }),
    ]);
    expect(await run(telltale, trace)).toMatchObject({
      name: 'agent',
      outcome: 'success',
      steps: 1,
      spans: 2,
      inputTokens: 40,
      costUsd: 0.02,
    });
  });

  it('a run whose root never arrives stays listed as incomplete, with its steps and cost', async () => {
    const trace = hex(16);
    await send(telltale, [
      span(trace, 'llm call', {
        parent: hex(8),
        at: 3,
        status: 2,
        attributes: [str(OpenInferenceAttr.spanKind, 'LLM'), dbl(OpenInferenceAttr.costTotal, 0.03)],
      }),
    ]);
    expect(await run(telltale, trace)).toMatchObject({ outcome: 'incomplete', steps: 1, spans: 1, costUsd: 0.03 });
  });

  it('spans that carry telltale.run.id form one run across traces and requests, whichever arrives first', async () => {
    const runId = `job-${hex(4)}`;
    const [traceA, traceB] = [hex(16), hex(16)];
    const rootId = hex(8);
    const tagged = (extra: Attr[]): Attr[] => [str(TelltaleAttr.runId, runId), ...extra];
    // a background step in a trace of its own (e.g. a queue consumer), sent before the run's root
    await send(telltale, [
      span(traceB, 'index docs', {
        parent: hex(8),
        at: 4,
        attributes: tagged([str(TelltaleAttr.stepKind, 'act'), str(TelltaleAttr.stepName, 'index')]),
      }),
    ]);
    await send(telltale, [
      span(traceA, 'plan', { parent: rootId, at: 1, attributes: tagged([str(TelltaleAttr.stepKind, 'plan')]) }),
    ]);
    expect(await run(telltale, runId)).toMatchObject({ outcome: 'incomplete', steps: 2, spans: 2 });
    await send(telltale, [
      span(traceA, 'indexer', { spanId: rootId, at: 0, attributes: tagged([str(TelltaleAttr.stepKind, 'run')]) }),
    ]);
    expect(await run(telltale, runId)).toMatchObject({ name: 'indexer', outcome: 'success', steps: 2, spans: 3 });
    expect(await run(telltale, traceA)).toBeUndefined();
    expect(await run(telltale, traceB)).toBeUndefined();
  });

  it("another library's spans without telltale.run.id join the run their trace's tagged spans named", async () => {
    // e.g. the AI SDK traced by a provider without RunIdSpanProcessor, inside an SDK run
    const runId = `agent-${hex(4)}`;
    const trace = hex(16);
    const [rootId, llmStepId, outerId] = [hex(8), hex(8), hex(8)];
    await send(telltale, [
      span(trace, 'support-agent', {
        spanId: rootId,
        at: 0,
        attributes: [str(TelltaleAttr.runId, runId), str(TelltaleAttr.stepKind, 'run')],
      }),
    ]);
    // a later request: the untagged ai.generateText and its doGenerate child, under an SDK step of the same request
    await send(telltale, [
      span(trace, 'ai.generateText.doGenerate', {
        parent: outerId,
        at: 2,
        attributes: [
          str(VercelAiAttr.modelId, 'gpt-4o'),
          int(OtelAttr.genAiInputTokens, 10),
          dbl(OpenInferenceAttr.costTotal, 0.04),
        ],
      }),
      span(trace, 'ai.generateText', { spanId: outerId, parent: llmStepId, at: 1 }),
      span(trace, 'draft', {
        spanId: llmStepId,
        parent: rootId,
        at: 1,
        attributes: [str(TelltaleAttr.runId, runId), str(TelltaleAttr.stepKind, 'act')],
      }),
    ]);
    expect(await run(telltale, runId)).toMatchObject({
      name: 'support-agent',
      outcome: 'success',
      steps: 2,
      spans: 4,
      inputTokens: 10,
      costUsd: 0.04,
    });
    expect(await run(telltale, trace)).toBeUndefined();
  });
});
