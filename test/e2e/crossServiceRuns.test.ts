import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SpanKind, context, type Context, type TextMapGetter, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator, type ExportResult } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import { OpenInferenceAttr, OtelAttr, TelltaleAttr } from '@telltale/semconv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiRun } from './harness/interopApi.js';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

/**
 * One agent run that crosses services is one run. An agent service tags its
 * spans with `telltale.run.id` and calls a tool service over real HTTP; the
 * tool service is plain OpenTelemetry: it continues the trace through the
 * W3C `traceparent` header and names no run. Each service has its own
 * tracer provider and official OTLP exporter, flushed in a chosen order to a
 * real server with two ingest workers (resolution is in storage, so neither
 * the order, the worker, nor a restart between the exports matters).
 */
const RUNS_PER_CASE = 3;
const AGENT_COST = 0.01;
const TOOL_COST = 0.002;
const propagator = new W3CTraceContextPropagator();

/** The official OTLP/HTTP exporter, made per export for the server's current URL (it changes on a restart). */
class ToServer implements SpanExporter {
  constructor(private readonly server: () => TelltaleProcess) {}
  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    new OTLPTraceExporter({ url: `${this.server().url}/v1/traces` }).export(spans, done);
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

function provider(service: string, server: () => TelltaleProcess): BasicTracerProvider {
  return new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': service }),
    // exports only when the test flushes (the order is the test's)
    spanProcessors: [new BatchSpanProcessor(new ToServer(server), { scheduledDelayMillis: 600_000 })],
  });
}

/** The tool service: a node http server whose handler continues the caller's trace (plain OTel: no run id). */
function toolServer(tracer: Tracer): Server {
  return createServer((req, res) => {
    const getter: TextMapGetter<IncomingHttpHeaders> = {
      get: (carrier, key) => carrier[key],
      keys: (carrier) => Object.keys(carrier),
    };
    const parent: Context = propagator.extract(context.active(), req.headers, getter);
    tracer.startActiveSpan('GET /lookup', { kind: SpanKind.SERVER }, parent, (server) => {
      const chat = tracer.startSpan('chat gpt-4o-mini', {
        attributes: { [OtelAttr.genAiOperationName]: 'chat', [OpenInferenceAttr.costTotal]: TOOL_COST },
      });
      setTimeout(() => {
        chat.end();
        res.end('found');
        server.end();
      }, 5);
    });
  });
}

/** One agent run: root, an LLM step, and a tool step calling the tool service over HTTP with `traceparent`. */
async function agentRun(tracer: Tracer, runId: string, toolUrl: string): Promise<string> {
  const tagged = { [TelltaleAttr.runId]: runId };
  return tracer.startActiveSpan(
    'support-agent',
    { attributes: { ...tagged, [TelltaleAttr.stepKind]: 'run' } },
    async (root) => {
      tracer
        .startSpan('chat gpt-4o', {
          attributes: { ...tagged, [TelltaleAttr.stepKind]: 'llm', [OpenInferenceAttr.costTotal]: AGENT_COST },
        })
        .end();
      await tracer.startActiveSpan(
        'lookup',
        {
          kind: SpanKind.CLIENT,
          attributes: { ...tagged, [TelltaleAttr.stepKind]: 'tool', [OtelAttr.genAiToolName]: 'lookup' },
        },
        async (call) => {
          const headers: Record<string, string> = {};
          propagator.inject(context.active(), headers, { set: (carrier, key, value) => (carrier[key] = value) });
          await new Promise<void>((resolve, reject) => {
            request(toolUrl, { headers }, (res) => {
              res.resume();
              res.on('end', resolve);
            })
              .on('error', reject)
              .end();
          });
          call.end();
        },
      );
      root.end();
      return root.spanContext().traceId;
    },
  );
}

interface RunDetail {
  run: ApiRun;
  services: string[];
  spans: Array<{ spanId: string; parentSpanId: string; name: string; serviceName: string }>;
}

describe('a run that crosses services is one run', () => {
  let telltale: TelltaleProcess;
  let agent: BasicTracerProvider;
  let tool: BasicTracerProvider;
  let http: Server;
  let toolUrl: string;
  const contextManager = new AsyncLocalStorageContextManager();

  beforeAll(async () => {
    telltale = await TelltaleProcess.start({ args: ['--ingest-workers', '2'] });
    context.setGlobalContextManager(contextManager.enable());
    agent = provider('agent-svc', () => telltale);
    tool = provider('tool-svc', () => telltale);
    http = toolServer(tool.getTracer('tool-service'));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    toolUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}/lookup`;
  });
  afterAll(async () => {
    await new Promise((resolve) => http.close(resolve));
    await Promise.all([agent.shutdown(), tool.shutdown()]);
    context.disable();
    await telltale.dispose();
  });

  async function runs(query = ''): Promise<ApiRun[]> {
    const { status, body } = await telltale.getJson<{ runs: ApiRun[] }>(`/api/v1/runs?limit=1000${query}`);
    expect(status).toBe(200);
    return body.runs;
  }

  /** Records RUNS_PER_CASE agent runs; nothing is exported yet. */
  async function record(label: string): Promise<{ runIds: string[]; traceIds: string[] }> {
    const runIds = Array.from({ length: RUNS_PER_CASE }, (_, i) => `${label}-${i}`);
    const traceIds: string[] = [];
    for (const id of runIds) traceIds.push(await agentRun(agent.getTracer('agent'), id, toolUrl));
    return { runIds, traceIds };
  }

  /** Polls (bounded) until the runs list shows each run whole, then checks the list, the filter and the details. */
  async function expectWholeRuns(runIds: string[], traceIds: string[]): Promise<void> {
    const deadline = Date.now() + 60_000;
    let listed: ApiRun[] = [];
    for (;;) {
      listed = await runs();
      const mine = listed.filter((r) => runIds.includes(r.runId));
      if (mine.length === runIds.length && mine.every((r) => r.spans === 5)) break;
      if (Date.now() > deadline) throw new Error(`runs not whole within 60 s: ${JSON.stringify(listed)}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    // one run per agent run, nothing listed under a trace id, the downstream cost counted in the run
    expect(listed.filter((r) => traceIds.includes(r.runId))).toEqual([]);
    for (const r of listed.filter((x) => runIds.includes(x.runId))) {
      expect(r).toMatchObject({ name: 'support-agent', service: 'agent-svc', outcome: 'success', steps: 3, spans: 5 });
      expect(r.costUsd).toBeCloseTo(AGENT_COST + TOOL_COST, 9);
    }
    // the list filters by any service that took part, not only the root's
    const byTool = (await runs('&service=tool-svc')).map((r) => r.runId);
    for (const id of runIds) expect(byTool).toContain(id);
    for (const id of runIds) {
      const { status, body } = await telltale.getJson<RunDetail>(`/api/v1/runs/${id}`);
      expect(status).toBe(200);
      expect(body.services).toEqual(['agent-svc', 'tool-svc']);
      const byName = new Map(body.spans.map((s) => [s.name, s]));
      expect([...byName.keys()].sort()).toEqual([
        'GET /lookup',
        'chat gpt-4o',
        'chat gpt-4o-mini',
        'lookup',
        'support-agent',
      ]);
      // the waterfall's links: the tool service's server span under the agent's client span
      expect(byName.get('GET /lookup')).toMatchObject({
        parentSpanId: byName.get('lookup')!.spanId,
        serviceName: 'tool-svc',
      });
      expect(byName.get('chat gpt-4o-mini')!.parentSpanId).toBe(byName.get('GET /lookup')!.spanId);
    }
  }

  it('the downstream service flushes first: its spans are not a run meanwhile, then join the run', async () => {
    const { runIds, traceIds } = await record('tool-first');
    await tool.forceFlush();
    // the fragments are stored but wait for their run (30 s by default): no run of their own
    const before = await runs('&service=tool-svc');
    expect(before.filter((r) => traceIds.includes(r.traceId))).toEqual([]);
    await agent.forceFlush();
    await expectWholeRuns(runIds, traceIds);
  });

  it('the downstream service flushes last', async () => {
    const { runIds, traceIds } = await record('tool-last');
    await agent.forceFlush();
    expect((await runs()).filter((r) => runIds.includes(r.runId)).length).toBe(RUNS_PER_CASE);
    await tool.forceFlush();
    await expectWholeRuns(runIds, traceIds);
  });

  it('both services export at once (two requests in flight: two ingest workers)', async () => {
    const { runIds, traceIds } = await record('both');
    await Promise.all([tool.forceFlush(), agent.forceFlush()]);
    await expectWholeRuns(runIds, traceIds);
  });

  it('the server restarts between the two exports', async () => {
    const { runIds, traceIds } = await record('restart');
    await tool.forceFlush();
    await telltale.restart({ args: ['--ingest-workers', '2'] });
    await agent.forceFlush();
    await expectWholeRuns(runIds, traceIds);
  });
});
