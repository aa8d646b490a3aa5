import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import type { Attributes, Span, TracerProvider } from '@opentelemetry/api';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  GenAiOperation,
  McpAttr,
  MCP_TOOL_ERROR_TYPE,
  OtelAttr,
  StepKind,
  TelltaleAttr,
  TelltaleError,
  TelltaleErrorCode,
} from '@telltale/semconv';
import { ensureContextManager } from '../internal/ensureContextManager.js';
import { errorMessageOf, errorTypeOf } from '../internal/errorType.js';
import { guard } from '../internal/reportFault.js';
import { getRunId } from '../internal/runContext.js';
import { SDK_NAME, SDK_VERSION } from '../internal/version.js';
import { stableHash } from '../stableHash.js';
import { extractMeta } from './mcpPropagation.js';
import { isToolErrorResult } from './mcpToolError.js';
import { mcpTransportAttributes } from './mcpTransportAttributes.js';

export interface InstrumentMcpServerOptions {
  /** Where spans go (default: the global tracer provider, looked up at each call). */
  tracerProvider?: TracerProvider;
}

type Handler = (request: unknown, extra: unknown) => Promise<unknown>;
interface ToolRequest {
  params?: { name?: unknown; arguments?: unknown; _meta?: unknown };
}
interface Extra {
  sessionId?: string;
  requestId?: string | number;
  requestInfo?: { headers?: Record<string, string | string[] | undefined> };
}

const INSTRUMENTED = new WeakSet<object>();

/**
 * Records every `tools/call` an MCP server (`McpServer` or the low-level
 * `Server`) handles as a server span `tools/call {tool}` with the MCP
 * attributes, under the trace context the client put in `params._meta`, so
 * the tool server's spans, and any Telltale steps its tools record, join the
 * agent's trace and run. An `isError` result marks the span failed
 * (`error.type` `tool_error`).
 *
 * The agent's client records the call as its tool step; so that the call is
 * counted once, a server span that joined a client's trace is not a step of
 * its own. A call without trace context (an uninstrumented client) is
 * recorded as a tool step (`execute_tool`, arguments hashed), a run of its
 * own. Call it before or after registering tools; calling it twice is a no-op.
 */
export function instrumentMcpServer<S extends McpServer | Server>(
  server: S,
  options: InstrumentMcpServerOptions = {},
): S {
  const low: Server = 'server' in server ? server.server : server;
  const handlers = (low as unknown as { _requestHandlers?: unknown })._requestHandlers;
  if (!(handlers instanceof Map))
    throw new TelltaleError({
      code: TelltaleErrorCode.UNSUPPORTED_CLIENT,
      message: 'instrumentMcpServer: not a server of @modelcontextprotocol/sdk 1.x (it has no request handler map)',
    });
  if (INSTRUMENTED.has(handlers)) return server;
  INSTRUMENTED.add(handlers);
  ensureContextManager();
  const state = { protocolVersion: undefined as string | undefined };
  const map = handlers as Map<string, Handler>;
  const wrap = (method: string, handler: Handler): Handler => {
    if (method === 'tools/call')
      return (request, extra) => handleToolCall(low, state, options, handler, request, extra);
    if (method === 'initialize')
      return async (request, extra) => {
        const result = (await handler(request, extra)) as { protocolVersion?: unknown } | undefined;
        if (typeof result?.protocolVersion === 'string') state.protocolVersion = result.protocolVersion;
        return result;
      };
    return handler;
  };
  for (const [method, handler] of map) map.set(method, wrap(method, handler));
  const set = map.set.bind(map);
  map.set = (method: string, handler: Handler) => set(method, wrap(method, handler));
  return server;
}

async function handleToolCall(
  low: Server,
  state: { protocolVersion: string | undefined },
  options: InstrumentMcpServerOptions,
  handler: Handler,
  request: unknown,
  extra: unknown,
): Promise<unknown> {
  const params = (request as ToolRequest | undefined)?.params;
  const name = typeof params?.name === 'string' ? params.name : '';
  const { ctx, hasParent } = extractMeta(context.active(), params?._meta);
  const started = guard('span.start', () => {
    const attributes = serverAttributes(low, state, extra as Extra | undefined, name);
    const runId = getRunId(ctx);
    if (runId !== undefined) attributes[TelltaleAttr.runId] = runId;
    if (!hasParent) Object.assign(attributes, standaloneStepAttributes(name, params?.arguments));
    const provider = options.tracerProvider ?? trace.getTracerProvider();
    const span = provider
      .getTracer(SDK_NAME, SDK_VERSION)
      .startSpan(name === '' ? 'tools/call' : `tools/call ${name}`, { kind: SpanKind.SERVER, attributes }, ctx);
    return { span, ctx: trace.setSpan(ctx, span) };
  });
  if (started === undefined) return handler(request, extra);
  let result: unknown;
  try {
    result = await context.with(started.ctx, () => handler(request, extra));
  } catch (err) {
    guard('span.end', () => endSpan(started.span, err));
    throw err;
  }
  guard('span.end', () =>
    endSpan(
      started.span,
      isToolErrorResult(result)
        ? Object.assign(new Error('tool returned isError'), { code: MCP_TOOL_ERROR_TYPE })
        : undefined,
    ),
  );
  return result;
}

function serverAttributes(
  low: Server,
  state: { protocolVersion: string | undefined },
  extra: Extra | undefined,
  name: string,
): Attributes {
  const attributes: Attributes = { [McpAttr.methodName]: 'tools/call' };
  if (name !== '') attributes[OtelAttr.genAiToolName] = name;
  if (extra?.sessionId !== undefined && extra.sessionId !== '') attributes[McpAttr.sessionId] = extra.sessionId;
  if (extra?.requestId !== undefined) attributes[McpAttr.jsonRpcRequestId] = String(extra.requestId);
  const headerVersion = extra?.requestInfo?.headers?.['mcp-protocol-version'];
  const version = typeof headerVersion === 'string' ? headerVersion : state.protocolVersion;
  if (version !== undefined) attributes[McpAttr.protocolVersion] = version;
  if (extra?.requestInfo !== undefined) {
    attributes[McpAttr.networkTransport] = 'tcp';
    attributes[McpAttr.networkProtocolName] = 'http';
  } else {
    Object.assign(attributes, mcpTransportAttributes(low.transport));
  }
  return attributes;
}

/** A call no instrumented client started: the server's span is the tool step. */
function standaloneStepAttributes(name: string, args: unknown): Attributes {
  const attributes: Attributes = {
    [TelltaleAttr.stepKind]: StepKind.tool,
    [TelltaleAttr.stepName]: name,
    [TelltaleAttr.toolName]: name,
    [OtelAttr.genAiOperationName]: GenAiOperation.executeTool,
  };
  const hash = guard('hash', () => stableHash(args ?? {}));
  if (hash !== undefined) attributes[TelltaleAttr.toolArgsHash] = hash;
  return attributes;
}

function endSpan(span: Span, err: unknown): void {
  try {
    if (err === undefined) {
      span.setStatus({ code: SpanStatusCode.OK });
      return;
    }
    span.setStatus({ code: SpanStatusCode.ERROR, message: errorMessageOf(err) });
    span.setAttribute(OtelAttr.errorType, errorTypeOf(err));
  } finally {
    span.end();
  }
}
