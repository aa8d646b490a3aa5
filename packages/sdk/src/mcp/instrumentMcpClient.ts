import { context } from '@opentelemetry/api';
import type { Attributes } from '@opentelemetry/api';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpAttr, OtelAttr } from '@telltale/semconv';
import type { Telltale } from '../createTelltale.js';
import { defaultTelltale } from '../defaultTelltale.js';
import { patchMethods } from '../llm/wrapMethods.js';
import type { MethodTable } from '../llm/wrapMethods.js';
import type { StepOptions } from '../types.js';
import { injectMeta } from './mcpPropagation.js';
import { isToolErrorResult, mcpToolError } from './mcpToolError.js';
import { mcpSessionId, mcpTransportAttributes } from './mcpTransportAttributes.js';

export interface InstrumentMcpClientOptions {
  /** The wrappers to record with (default: the global ones, set up by `init`). */
  telltale?: Telltale;
  /** Extra options of every tool step (attributes, side effect…). */
  stepOptions?: Omit<StepOptions, 'retry' | 'attempt'>;
  /** `gen_ai.tool.call.id` of a call: the model's id for it, when you have one. */
  toolCallId?: (params: { name: string; arguments?: unknown }) => string | undefined;
  /** Patch the client in place instead of returning a proxy. */
  patch?: boolean;
}

interface McpRequest {
  method?: unknown;
  params?: { name?: unknown; arguments?: unknown; _meta?: unknown } & Record<string, unknown>;
}

/** Negotiated protocol versions, per client (seen in the initialize result). */
const protocolVersions = new WeakMap<object, string>();

/**
 * Records every `tools/call` of an MCP client (`callTool`, or `request` with
 * that method) as a Telltale tool step named after the tool: its arguments
 * hashed as for any tool (so loop detection sees repeated MCP calls), the
 * MCP attributes (`mcp.method.name`, `mcp.session.id`,
 * `mcp.protocol.version`, transport), and a failed step for an `isError`
 * result (error type `tool_error`; the result is still returned). The
 * step's trace context and run id go to the server in `params._meta`.
 * Instrument before `connect` to record the negotiated protocol version.
 */
export function instrumentMcpClient<C extends Client>(client: C, options: InstrumentMcpClientOptions = {}): C {
  const table: MethodTable = {
    request:
      (original) =>
      (request, ...rest) =>
        wrapRequest(client, original, request as McpRequest, rest, options),
  };
  if (options.patch === true) {
    patchMethods(client, table);
    return client;
  }
  const original = client.request.bind(client) as (...args: unknown[]) => unknown;
  const request = (...args: unknown[]): unknown =>
    wrapRequest(client, original, args[0] as McpRequest, args.slice(1), options);
  // every other method runs with the proxy as `this`, so callTool, connect… reach the wrapped request
  return new Proxy(client, {
    get(target, prop, receiver) {
      if (prop === 'request') return request;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(receiver) : value;
    },
  });
}

function wrapRequest(
  client: Client,
  original: (...args: unknown[]) => unknown,
  request: McpRequest,
  rest: unknown[],
  options: InstrumentMcpClientOptions,
): unknown {
  if (request?.method === 'initialize') {
    const pending = original(request, ...rest) as Promise<{ protocolVersion?: unknown } | undefined>;
    pending.then(
      (result) => {
        if (typeof result?.protocolVersion === 'string') protocolVersions.set(client, result.protocolVersion);
      },
      () => undefined,
    );
    return pending;
  }
  const params = request?.params;
  if (request?.method !== 'tools/call' || typeof params?.name !== 'string') return original(request, ...rest);
  return callTool(
    client,
    original,
    request,
    params as NonNullable<McpRequest['params']> & { name: string },
    rest,
    options,
  );
}

async function callTool(
  client: Client,
  original: (...args: unknown[]) => unknown,
  request: McpRequest,
  params: NonNullable<McpRequest['params']> & { name: string },
  rest: unknown[],
  options: InstrumentMcpClientOptions,
): Promise<unknown> {
  const telltale = options.telltale ?? defaultTelltale;
  const args = params.arguments ?? {};
  const attributes: Attributes = {
    ...options.stepOptions?.attributes,
    ...mcpAttributes(client),
    [OtelAttr.genAiToolType]: 'extension',
  };
  const callId = options.toolCallId?.({ name: params.name, arguments: params.arguments });
  if (callId !== undefined && callId !== '') attributes[OtelAttr.genAiToolCallId] = callId;
  let errorResult: { result: unknown; error: Error } | undefined;
  try {
    return await telltale.tool(
      params.name,
      args,
      async () => {
        const sent = { ...request, params: { ...params, _meta: injectMeta(context.active(), params._meta) } };
        const result = await (original(sent, ...rest) as Promise<unknown>);
        if (!isToolErrorResult(result)) return result;
        errorResult = { result, error: mcpToolError(result) };
        throw errorResult.error;
      },
      { ...options.stepOptions, attributes },
    );
  } catch (err) {
    // an isError result failed the step; the caller gets the result, as without instrumentation
    if (errorResult !== undefined && err === errorResult.error) return errorResult.result;
    throw err;
  }
}

function mcpAttributes(client: Client): Attributes {
  const transport = client.transport;
  const attributes: Attributes = { [McpAttr.methodName]: 'tools/call', ...mcpTransportAttributes(transport) };
  const session = mcpSessionId(transport);
  if (session !== undefined) attributes[McpAttr.sessionId] = session;
  const version =
    protocolVersions.get(client) ?? (transport as { protocolVersion?: unknown } | undefined)?.protocolVersion;
  if (typeof version === 'string' && version !== '') attributes[McpAttr.protocolVersion] = version;
  return attributes;
}
