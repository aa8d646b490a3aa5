import type { Attributes } from '@opentelemetry/api';
import { McpAttr } from '@telltale/semconv';

/**
 * Network attributes of an MCP transport, where they are known: stdio is a
 * `pipe`; Streamable HTTP and SSE are `tcp` + `http` with the server's
 * address and port (client side, from the transport's URL). Transports are
 * recognised by their class name, so no transport module is loaded.
 */
export function mcpTransportAttributes(transport: unknown): Attributes {
  if (typeof transport !== 'object' || transport === null) return {};
  const kind = (transport as { constructor?: { name?: unknown } }).constructor?.name;
  if (typeof kind !== 'string') return {};
  if (kind.startsWith('Stdio')) return { [McpAttr.networkTransport]: 'pipe' };
  if (!kind.startsWith('StreamableHTTP') && !kind.startsWith('SSE')) return {};
  const attributes: Attributes = { [McpAttr.networkTransport]: 'tcp', [McpAttr.networkProtocolName]: 'http' };
  const url = (transport as { _url?: unknown })._url;
  if (url instanceof URL) {
    attributes[McpAttr.serverAddress] = url.hostname;
    const port = url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
    attributes[McpAttr.serverPort] = port;
  }
  return attributes;
}

/** The session id of a transport (Streamable HTTP), if it has one. */
export function mcpSessionId(transport: unknown): string | undefined {
  if (typeof transport !== 'object' || transport === null) return undefined;
  const id = (transport as { sessionId?: unknown }).sessionId;
  return typeof id === 'string' && id !== '' ? id : undefined;
}
