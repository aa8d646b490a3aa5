import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { McpAttr, OtelAttr, TelltaleAttr } from '@telltale/semconv';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Telltale } from '../createTelltale.js';
import { inMemoryTelltale } from '../testing/inMemoryTelltale.js';
import type { InMemoryTelltale } from '../testing/inMemoryTelltale.js';
import { instrumentMcpClient } from './instrumentMcpClient.js';
import { instrumentMcpServer } from './instrumentMcpServer.js';

/** A tool server: `add`, `refuse` (an isError result) and `lookup`, which records a Telltale step of its own. */
function toolServer(telltale: Telltale): McpServer {
  const server = new McpServer({ name: 'tools', version: '1.0.0' });
  server.registerTool('add', { inputSchema: { a: z.number(), b: z.number() } }, ({ a, b }) => ({
    content: [{ type: 'text', text: String(a + b) }],
  }));
  server.registerTool('refuse', { inputSchema: { why: z.string() } }, ({ why }) => ({
    content: [{ type: 'text', text: `refused: ${why}` }],
    isError: true,
  }));
  server.registerTool('lookup', { inputSchema: { key: z.string() } }, async ({ key }) => {
    const value = await telltale.step('retrieval', 'kv-get', () => `value-of-${key}`);
    return { content: [{ type: 'text', text: value }] };
  });
  return server;
}

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.allSettled(cleanups.splice(0).map((c) => c()));
});

async function inMemoryPair(mem: InMemoryTelltale, instrumentClient = true) {
  const server = instrumentMcpServer(toolServer(mem.telltale), { tracerProvider: mem.provider });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const raw = new Client({ name: 'agent', version: '1.0.0' });
  const client = instrumentClient ? instrumentMcpClient(raw, { telltale: mem.telltale }) : raw;
  await client.connect(clientSide);
  cleanups.push(
    () => client.close(),
    () => server.close(),
  );
  return client;
}

const named = (mem: InMemoryTelltale, name: string): ReadableSpan[] => mem.spans().filter((s) => s.name === name);

describe('MCP over an in-memory transport', () => {
  it("puts the server's spans in the agent's trace, under the client's tool step, in the agent's run", async () => {
    const mem = inMemoryTelltale();
    const client = await inMemoryPair(mem);
    let runId = '';
    const text = await mem.telltale.run('mcp-agent', async (run) => {
      runId = run.runId ?? '';
      const res = await client.callTool({ name: 'lookup', arguments: { key: 'k1' } });
      return (res.content as Array<{ text: string }>)[0]!.text;
    });
    expect(text).toBe('value-of-k1');

    const root = mem.span('mcp-agent');
    const step = mem.span('lookup');
    const served = mem.span('tools/call lookup');
    const inner = mem.span('kv-get');
    for (const s of [step, served, inner]) expect(s.spanContext().traceId).toBe(root.spanContext().traceId);
    expect(step.parentSpanContext?.spanId).toBe(root.spanContext().spanId);
    expect(served.parentSpanContext?.spanId).toBe(step.spanContext().spanId);
    expect(inner.parentSpanContext?.spanId).toBe(served.spanContext().spanId);
    expect(runId).not.toBe('');
    for (const s of [step, served, inner]) expect(s.attributes[TelltaleAttr.runId]).toBe(runId);

    expect(step.attributes).toMatchObject({
      [TelltaleAttr.stepKind]: 'tool',
      [TelltaleAttr.toolName]: 'lookup',
      [OtelAttr.genAiOperationName]: 'execute_tool',
      [OtelAttr.genAiToolName]: 'lookup',
      [McpAttr.methodName]: 'tools/call',
      [McpAttr.protocolVersion]: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    expect(step.status.code).toBe(SpanStatusCode.OK);
    expect(served.kind).toBe(SpanKind.SERVER);
    expect(served.attributes).toMatchObject({
      [McpAttr.methodName]: 'tools/call',
      [OtelAttr.genAiToolName]: 'lookup',
      [McpAttr.protocolVersion]: step.attributes[McpAttr.protocolVersion],
      [McpAttr.jsonRpcRequestId]: expect.any(String),
    });
    // the client's tool step is the step; the joined server span is not a second one
    expect(served.attributes[TelltaleAttr.stepKind]).toBeUndefined();
    expect(served.attributes[OtelAttr.genAiOperationName]).toBeUndefined();
  });

  it('records an isError result as a failed tool step, and still returns the result', async () => {
    const mem = inMemoryTelltale();
    const client = await inMemoryPair(mem);
    const res = await mem.telltale.run('mcp-agent', () =>
      client.callTool({ name: 'refuse', arguments: { why: 'policy' } }),
    );
    expect(res.isError).toBe(true);
    const step = mem.span('refuse');
    expect(step.status).toMatchObject({ code: SpanStatusCode.ERROR, message: 'refused: policy' });
    expect(step.attributes[OtelAttr.errorType]).toBe('tool_error');
    const served = mem.span('tools/call refuse');
    expect(served.status.code).toBe(SpanStatusCode.ERROR);
    expect(served.attributes[OtelAttr.errorType]).toBe('tool_error');
    // the run itself went on: the agent decides what a refused tool means
    expect(mem.span('mcp-agent').status.code).toBe(SpanStatusCode.OK);
  });

  it('hashes arguments as for any tool: repeated identical calls share a hash, other arguments differ', async () => {
    const mem = inMemoryTelltale();
    const client = await inMemoryPair(mem);
    await mem.telltale.run('mcp-agent', async () => {
      await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
      await client.callTool({ name: 'add', arguments: { b: 2, a: 1 } });
      await client.callTool({ name: 'add', arguments: { a: 1, b: 3 } });
    });
    const hashes = named(mem, 'add').map((s) => s.attributes[TelltaleAttr.toolArgsHash]);
    expect(hashes).toHaveLength(3);
    expect(hashes[0]).toBe(hashes[1]);
    expect(hashes[2]).not.toBe(hashes[0]);
    // the same hash the SDK's own tool() gives for these arguments
    await mem.telltale.tool('add', { a: 1, b: 2 }, () => 3);
    expect(named(mem, 'add')[3]!.attributes[TelltaleAttr.toolArgsHash]).toBe(hashes[0]);
  });

  it('patches the client in place on request, with the tool call id the caller knows', async () => {
    const mem = inMemoryTelltale();
    const server = instrumentMcpServer(toolServer(mem.telltale), { tracerProvider: mem.provider });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const raw = new Client({ name: 'agent', version: '1.0.0' });
    const same = instrumentMcpClient(raw, { telltale: mem.telltale, patch: true, toolCallId: () => 'call_42' });
    expect(same).toBe(raw);
    await raw.connect(clientSide);
    cleanups.push(
      () => raw.close(),
      () => server.close(),
    );
    await mem.telltale.run('mcp-agent', () => raw.callTool({ name: 'add', arguments: { a: 1, b: 1 } }));
    const step = mem.span('add');
    expect(step.attributes[OtelAttr.genAiToolCallId]).toBe('call_42');
    expect(step.attributes[McpAttr.protocolVersion]).toEqual(expect.any(String));
    expect(mem.span('tools/call add').parentSpanContext?.spanId).toBe(step.spanContext().spanId);
  });

  it('records a call from an uninstrumented client as a tool step of its own on the server', async () => {
    const mem = inMemoryTelltale();
    const client = await inMemoryPair(mem, false);
    await client.callTool({ name: 'add', arguments: { a: 2, b: 2 } });
    const served = mem.span('tools/call add');
    expect(served.parentSpanContext).toBeUndefined();
    expect(served.attributes).toMatchObject({
      [TelltaleAttr.stepKind]: 'tool',
      [TelltaleAttr.toolName]: 'add',
      [OtelAttr.genAiOperationName]: 'execute_tool',
      [TelltaleAttr.toolArgsHash]: expect.any(String),
    });
  });
});

describe('MCP over Streamable HTTP on localhost', () => {
  it('joins the trace across HTTP and records the session id and network attributes on both sides', async () => {
    const mem = inMemoryTelltale();
    const server = instrumentMcpServer(toolServer(mem.telltale), { tracerProvider: mem.provider });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
    await server.connect(transport);
    const http: HttpServer = createServer((req, res) => {
      transport.handleRequest(req, res).catch(() => res.destroy());
    });
    await new Promise<void>((ok) => http.listen(0, '127.0.0.1', ok));
    const port = (http.address() as AddressInfo).port;
    const client = instrumentMcpClient(new Client({ name: 'agent', version: '1.0.0' }), { telltale: mem.telltale });
    cleanups.push(
      () => client.close(),
      () => server.close(),
      () => new Promise((ok) => http.close(ok)),
    );
    http.closeIdleConnections();
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));

    await mem.telltale.run('mcp-agent', () => client.callTool({ name: 'add', arguments: { a: 20, b: 22 } }));
    const step = mem.span('add');
    const served = mem.span('tools/call add');
    expect(served.spanContext().traceId).toBe(step.spanContext().traceId);
    expect(served.parentSpanContext?.spanId).toBe(step.spanContext().spanId);
    const session = step.attributes[McpAttr.sessionId];
    expect(session).toEqual(expect.stringMatching(/^[0-9a-f-]{36}$/));
    expect(served.attributes[McpAttr.sessionId]).toBe(session);
    expect(step.attributes).toMatchObject({
      [McpAttr.networkTransport]: 'tcp',
      [McpAttr.networkProtocolName]: 'http',
      [McpAttr.serverAddress]: '127.0.0.1',
      [McpAttr.serverPort]: port,
    });
    expect(served.attributes).toMatchObject({
      [McpAttr.networkTransport]: 'tcp',
      [McpAttr.protocolVersion]: step.attributes[McpAttr.protocolVersion],
    });
  });
});
