import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Attributes, Span, Tracer } from '@opentelemetry/api';
import { OpenInferenceAttr, OtelAttr, TelltaleAttr, VercelAiAttr } from '@telltale/semconv';
import { createTelltale, createTracerProvider } from '@telltale/sdk';
import { Store } from '@telltale/store';
import { StoreInspector } from '@telltale/store/testing';
import type { SpanContent } from '@telltale/api-contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InteropTracing } from './harness/InteropTracing.js';
import { metricValue } from './harness/metricValue.js';
import { apiWithKey } from './harness/apiWithKey.js';
import { runCli } from './harness/runCli.js';
import { TelltaleProcess } from './harness/TelltaleProcess.js';

const ADMIN_KEY = 'e2e-admin-key-content-0123456789abcdefgh';
const METRICS_TOKEN = 'content-test-metrics-token-0123456789';
const PLANTED_KEY = 'sk-proj-PlantedKey0123456789abcdefghij';
const MIB = 1024 * 1024;

/** One ended span with these attributes (and message events); its ids, the run being its trace. */
function emit(tracer: Tracer, name: string, attributes: Attributes, events: [string, Attributes][] = []) {
  const span: Span = tracer.startSpan(name, { attributes, root: true });
  for (const [event, attrs] of events) span.addEvent(event, attrs);
  span.end();
  const { traceId, spanId } = span.spanContext();
  return { runId: traceId, spanId };
}

async function pollUntil<T>(
  fn: () => Promise<T | undefined>,
  what: string,
  timeoutMs = 30_000,
  last: () => unknown = () => '',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(last())}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('span content: captured, kept apart, limited, switched off per project (official exporters, real server)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'telltale-content-e2e-'));
  let telltale: TelltaleProcess;
  const keys: Record<string, { ingest: string; read: string }> = {};

  const api = <T>(method: string, path: string, key: string, body?: unknown) =>
    apiWithKey<T>(telltale.url, method, path, key, body);
  const contentOf = async (project: string, ids: { runId: string; spanId: string }) =>
    api<{ content: SpanContent }>('GET', `/runs/${ids.runId}/spans/${ids.spanId}/content`, keys[project]!.read);

  beforeAll(async () => {
    telltale = await TelltaleProcess.start({
      dataDir,
      args: ['--auth', 'keys', '--admin-key', ADMIN_KEY, '--metrics-token', METRICS_TOKEN],
    });
    for (const [id, contentStored] of [
      ['with-content', true],
      ['no-content', false],
    ] as const) {
      expect((await api('POST', '/admin/projects', ADMIN_KEY, { id, contentStored })).status).toBe(201);
      const ingest = await api<{ secret: string }>('POST', `/admin/projects/${id}/keys`, ADMIN_KEY, { kind: 'ingest' });
      const read = await api<{ secret: string }>('POST', `/admin/projects/${id}/keys`, ADMIN_KEY, { kind: 'read' });
      keys[id] = { ingest: ingest.body.secret, read: read.body.secret };
    }
  }, 120_000);
  afterAll(async () => {
    await telltale?.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'reads every convention, cuts a 5 MB prompt, and leaves span rows as they would be without content',
    { timeout: 180_000 },
    async () => {
      const tracing = new InteropTracing(telltale.url, 'content-agent', {
        simple: true,
        headers: { authorization: `Bearer ${keys['with-content']!.ingest}` },
      });
      const tracer = tracing.tracer('content-test');
      // the same args hash on both tool spans (as our SDK sends it): their rows may differ by the content only
      const toolAttrs = {
        [OtelAttr.genAiOperationName]: 'execute_tool',
        [OtelAttr.genAiToolName]: 'search',
        [TelltaleAttr.toolArgsHash]: 'a1b2c3d4e5f60718',
      };
      const ids = {
        genAi: emit(tracer, 'chat gpt-4o', {
          [OtelAttr.genAiOperationName]: 'chat',
          [OtelAttr.genAiRequestModel]: 'gpt-4o',
          [OtelAttr.genAiSystemInstructions]: JSON.stringify([{ type: 'text', content: 'be brief' }]),
          [OtelAttr.genAiInputMessages]: JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'hi' }] }]),
          [OtelAttr.genAiOutputMessages]: JSON.stringify([
            { role: 'assistant', parts: [{ type: 'text', content: 'hello' }] },
          ]),
        }),
        events: emit(tracer, 'chat m', { [OtelAttr.genAiOperationName]: 'chat' }, [
          ['gen_ai.user.message', { content: 'from an event' }],
          ['gen_ai.choice', { 'gen_ai.event.content': JSON.stringify({ message: { content: 'chosen' } }) }],
        ]),
        openInference: emit(tracer, 'ChatOpenAI', {
          [OpenInferenceAttr.spanKind]: 'LLM',
          'llm.input_messages.0.message.role': 'user',
          'llm.input_messages.0.message.content': 'oi question',
          [OpenInferenceAttr.outputValue]: 'oi answer',
        }),
        vercel: emit(tracer, 'ai.generateText.doGenerate', {
          [VercelAiAttr.promptMessages]: JSON.stringify([
            { role: 'user', content: [{ type: 'text', text: 'ai sdk' }] },
          ]),
          [VercelAiAttr.responseText]: 'ai sdk answer',
        }),
        openLlmetry: emit(tracer, 'openai.chat', {
          [OtelAttr.genAiSystem]: 'openai',
          'gen_ai.prompt.0.role': 'user',
          'gen_ai.prompt.0.content': 'traceloop question',
          'gen_ai.completion.0.role': 'assistant',
          'gen_ai.completion.0.content': 'traceloop answer',
        }),
        big: emit(tracer, 'chat big', {
          [OtelAttr.genAiOperationName]: 'chat',
          [OtelAttr.genAiInputMessages]: JSON.stringify([
            { role: 'user', parts: [{ type: 'text', content: 'ü'.repeat(2_500_000) }] },
          ]),
        }),
        // a long message list, the only input: stored as received, read into messages when read
        long: emit(tracer, 'chat long', {
          [OtelAttr.genAiOperationName]: 'chat',
          [OtelAttr.genAiInputMessages]: JSON.stringify([
            { role: 'user', parts: [{ type: 'text', content: 'ö long question '.repeat(40) }] },
            { role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 'lookup', arguments: { q: 1 } }] },
          ]),
        }),
        withTool: emit(tracer, 'execute_tool search', {
          ...toolAttrs,
          [OtelAttr.genAiToolCallArguments]: '{"q":"refund"}',
        }),
        withoutTool: emit(tracer, 'execute_tool search', toolAttrs),
      };
      await tracing.flush();
      await tracing.shutdown();

      // our SDK, capture on: the planted key never leaves the agent
      const provider = createTracerProvider({
        endpoint: telltale.url,
        apiKey: keys['with-content']!.ingest,
        service: 'sdk',
      });
      const t = createTelltale({ tracerProvider: provider, capture: 'full' });
      let sdkRun = '';
      await t.run('agent', async (r) => {
        sdkRun = r.runId;
        await t.tool('fetch', { header: `api_key=${PLANTED_KEY}` }, () => 'fetched');
      });
      await provider.shutdown();

      // read keys may not read content until the project allows it
      const denied = await pollUntil(async () => {
        const res = await contentOf('with-content', ids.genAi);
        return res.status === 403 ? res : undefined;
      }, 'the read gate');
      expect(JSON.stringify(denied.body)).toContain('contentReadable');
      const put = await api<{ project: { contentReadable: boolean } }>(
        'PUT',
        '/admin/projects/with-content',
        ADMIN_KEY,
        {
          contentReadable: true,
        },
      );
      expect(put.body.project.contentReadable).toBe(true);

      let lastAnswer: unknown;
      const read = async (which: { runId: string; spanId: string }): Promise<SpanContent> =>
        pollUntil(
          async () => {
            const res = await contentOf('with-content', which);
            lastAnswer = res;
            return res.status === 200 ? res.body.content : undefined;
          },
          `content of ${which.spanId}`,
          30_000,
          () => [lastAnswer, telltale.logs.filter((l) => !l.includes('"msg":"api')).slice(-15)],
        );
      expect((await read(ids.genAi)).input.messages).toEqual([
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hi' },
      ]);
      expect((await read(ids.genAi)).output.messages).toEqual([{ role: 'assistant', content: 'hello' }]);
      const fromEvents = await read(ids.events);
      expect(fromEvents.input.messages).toEqual([{ role: 'user', content: 'from an event' }]);
      expect(fromEvents.output.messages).toEqual([{ role: 'assistant', content: 'chosen' }]);
      expect((await read(ids.openInference)).input.messages).toEqual([{ role: 'user', content: 'oi question' }]);
      expect((await read(ids.openInference)).output.text).toBe('oi answer');
      expect((await read(ids.vercel)).input.messages).toEqual([{ role: 'user', content: 'ai sdk' }]);
      expect((await read(ids.vercel)).output.text).toBe('ai sdk answer');
      expect((await read(ids.openLlmetry)).output.messages).toEqual([
        { role: 'assistant', content: 'traceloop answer' },
      ]);
      expect((await read(ids.withTool)).input.toolArguments).toEqual({ q: 'refund' });
      const toolCall = '{"type":"tool_call","id":"c1","name":"lookup","arguments":{"q":1}}';
      const long = await read(ids.long);
      expect(long.input.messages).toEqual([
        { role: 'user', content: 'ö long question '.repeat(40) },
        { role: 'assistant', content: toolCall },
      ]);
      expect(long.truncated).toBe(false);
      expect(long.originalBytes).toBe(
        'user'.length + Buffer.byteLength('ö long question '.repeat(40)) + 'assistant'.length + toolCall.length,
      );

      const big = await read(ids.big);
      expect(big.truncated).toBe(true);
      expect(big.originalBytes).toBe(5_000_000 + 'user'.length);
      const kept = big.input.messages?.[0]?.content ?? '';
      expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(MIB);
      expect(Buffer.byteLength(kept)).toBeGreaterThan(MIB - 16);
      expect(kept).toMatch(/^ü+$/);

      const sdkContent = await pollUntil(async () => {
        const res = await api<{ spans: SpanContent[] }>('GET', `/runs/${sdkRun}/content`, keys['with-content']!.read);
        return res.status === 200 && res.body.spans.length > 0 ? res.body.spans : undefined;
      }, 'the SDK run content');
      expect(sdkContent[0]?.input.toolArguments).toEqual({ header: 'api_key=[REDACTED:api_key]' });
      expect(sdkContent[0]?.output.toolResult).toBe('fetched');
      expect(sdkContent[0]).toMatchObject({ capture: 'full', redactedStrings: 1 });
      expect(JSON.stringify(sdkContent)).not.toContain(PLANTED_KEY);

      // deleting the run deletes its content with it (the admin CLI, through the server)
      const deleteSdkRun = (...flags: string[]) =>
        runCli(['runs', 'delete', sdkRun, '--project', 'with-content', '--endpoint', telltale.url, ...flags], {
          env: { TELLTALE_ADMIN_KEY: ADMIN_KEY },
        });
      const deleted = await deleteSdkRun('--json');
      expect(deleted.code, deleted.stderr).toBe(0);
      expect(JSON.parse(deleted.stdout)).toEqual({ runId: sdkRun, spans: 2, contentSpans: sdkContent.length });
      const sdkSpan = { runId: sdkRun, spanId: sdkContent[0]!.spanId };
      expect((await contentOf('with-content', sdkSpan)).status).toBe(404);
      expect((await api('GET', `/runs/${sdkRun}`, keys['with-content']!.read)).status).toBe(404);
      const again = await deleteSdkRun();
      expect(again.code).toBe(1);
      expect(again.stderr).toContain(`project with-content has no run ${sdkRun}`);

      const metrics = await fetch(`${telltale.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      const text = await metrics.text();
      expect(metricValue(text, 'telltale_content_spans_total', { outcome: 'truncated' })).toBe(1);
      expect(metricValue(text, 'telltale_content_spans_total', { outcome: 'kept' })).toBe(8);

      // the span rows: no content attribute, and the same row with or without the arguments
      await telltale.stop();
      const store = await Store.open({ kind: 'embedded', dataDir }, { reconcile: false });
      try {
        const inspect = new StoreInspector(store);
        const withTool = await inspect.spanRow(ids.withTool.spanId);
        const withoutTool = await inspect.spanRow(ids.withoutTool.spanId);
        expect(withTool).toBeDefined();
        expect(withTool?.attributes).toEqual(withoutTool?.attributes);
        expect(withTool?.rowBytes).toBe(withoutTool?.rowBytes);
        const bigRow = await inspect.spanRow(ids.big.spanId);
        expect(Object.keys(bigRow?.attributes ?? {})).toEqual([OtelAttr.genAiOperationName]);
        expect(bigRow?.rowBytes).toBeLessThan(2_000);
        const rows = await inspect.contentRows();
        // nine kept, one deleted with its run
        expect(rows.filter((r) => r.projectId === 'with-content')).toHaveLength(8);
        expect(rows.find((r) => r.spanId === sdkSpan.spanId)).toBeUndefined();
        expect(await inspect.spanRow(sdkSpan.spanId)).toBeUndefined();
        expect(rows.find((r) => r.spanId === ids.big.spanId)).toMatchObject({ truncated: true });
      } finally {
        await store.close();
        await telltale.restart();
      }
    },
  );

  it(
    'stores nothing of a project that keeps no content, and says how much it dropped',
    { timeout: 120_000 },
    async () => {
      const tracing = new InteropTracing(telltale.url, 'quiet-agent', {
        simple: true,
        headers: { authorization: `Bearer ${keys['no-content']!.ingest}` },
      });
      const tracer = tracing.tracer('no-content');
      const sent = [1, 2, 3].map((i) =>
        emit(tracer, 'chat m', {
          [OtelAttr.genAiOperationName]: 'chat',
          [OtelAttr.genAiInputMessages]: JSON.stringify([
            { role: 'user', parts: [{ type: 'text', content: `secret ${i}` }] },
          ]),
        }),
      );
      await tracing.flush();
      await tracing.shutdown();
      const project = await pollUntil(async () => {
        const res = await api<{ project: { contentDroppedSpans: number; contentStored: boolean } }>(
          'GET',
          '/admin/projects/no-content',
          ADMIN_KEY,
        );
        return res.body.project.contentDroppedSpans >= 3 ? res.body.project : undefined;
      }, 'the dropped count');
      expect(project).toMatchObject({ contentDroppedSpans: 3, contentStored: false });
      const metrics = await fetch(`${telltale.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(metricValue(await metrics.text(), 'telltale_content_spans_total', { outcome: 'dropped' })).toBe(3);
      await api('PUT', '/admin/projects/no-content', ADMIN_KEY, { contentReadable: true });
      // the spans are stored (their run answers), their content is not
      const run = await pollUntil(async () => {
        const res = await api('GET', `/traces/${sent[0]!.runId}`, keys['no-content']!.read);
        return res.status === 200 ? res : undefined;
      }, 'the trace');
      expect(run.status).toBe(200);
      expect((await contentOf('no-content', sent[0]!)).status).toBe(404);

      await telltale.stop();
      // with the server stopped, the CLI deletes a run in the data directory itself
      const deleted = await runCli([
        'runs',
        'delete',
        sent[1]!.runId,
        '--project',
        'no-content',
        '--data-dir',
        dataDir,
      ]);
      expect(deleted.code, deleted.stderr).toBe(0);
      expect(deleted.stdout).toBe(
        `deleted run ${sent[1]!.runId} of project no-content: 1 span (0 with content) and its facts\n`,
      );
      const store = await Store.open({ kind: 'embedded', dataDir }, { reconcile: false });
      try {
        const inspect = new StoreInspector(store);
        expect(await inspect.spanRow(sent[1]!.spanId)).toBeUndefined();
        expect(await inspect.spanRow(sent[2]!.spanId)).toBeDefined();
        const rows = await inspect.contentRows();
        expect(rows.filter((r) => r.projectId === 'no-content')).toEqual([]);
        expect(rows.filter((r) => r.projectId === 'with-content').length).toBeGreaterThan(0);
      } finally {
        await store.close();
      }
    },
  );
});
