import { MCP_TOOL_ERROR_TYPE } from '@telltale/semconv';

/** A tools/call result that says `isError: true`. */
export function isToolErrorResult(result: unknown): boolean {
  return typeof result === 'object' && result !== null && (result as { isError?: unknown }).isError === true;
}

/**
 * The error a tool step records for an `isError` result: `error.type`
 * `tool_error`, and the result's first text as the message.
 */
export function mcpToolError(result: unknown): Error {
  const content = (result as { content?: unknown }).content;
  let text: string | undefined;
  if (Array.isArray(content))
    for (const c of content as unknown[]) {
      const part = c as { type?: unknown; text?: unknown } | null;
      if (part?.type === 'text' && typeof part.text === 'string') {
        text = part.text;
        break;
      }
    }
  return Object.assign(new Error(text ?? 'tool returned isError'), { name: 'McpToolError', code: MCP_TOOL_ERROR_TYPE });
}
