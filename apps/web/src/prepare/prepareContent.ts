import type { ContentSide, SpanContent } from '@telltale/api-contract';
import { isApiError } from '../api/ApiError';
import { formatCount } from '../format';

/** Characters of a long text shown before its "show all" button. */
export const TEXT_PREVIEW_CHARS = 2_000;

/** The roles the dashboard styles; any other role is shown as named, styled as `other`. */
const ROLE_LABELS: Record<string, string> = {
  system: 'System',
  developer: 'Developer',
  user: 'User',
  assistant: 'Assistant',
  tool: 'Tool',
};

export interface MessageView {
  role: string;
  roleLabel: string;
  /** A CSS modifier: `system`, `user`, `assistant`, `tool`, `developer` or `other`. */
  roleClass: string;
  text: string;
}

export type ContentBlock =
  | { kind: 'messages'; messages: MessageView[] }
  | { kind: 'json'; label: string; value: unknown }
  | { kind: 'text'; text: string };

export interface ContentView {
  input: ContentBlock[];
  output: ContentBlock[];
  /** `truncated at storage (N of M bytes)` when the server cut the content. */
  truncatedNote: string | undefined;
  /** `2 strings redacted before export` when the SDK's redactors changed something. */
  redactedNote: string | undefined;
}

export type ContentState =
  | { kind: 'loading' }
  /** 404: nothing was kept for this span (not captured, dropped by the project, or expired). */
  | { kind: 'none' }
  /** 403: the project does not let read keys read content. */
  | { kind: 'hidden' }
  | { kind: 'error'; error: unknown }
  | { kind: 'ready'; view: ContentView };

export function messageView(role: string, text: string): MessageView {
  const key = role.toLowerCase();
  const label = ROLE_LABELS[key];
  return {
    role,
    roleLabel: label ?? (role === '' ? 'Message' : role),
    roleClass: label === undefined ? 'other' : key,
    text,
  };
}

/** The blocks of one side: messages, then tool arguments, the tool's result, and text (folded when it is JSON). */
export function contentBlocks(side: ContentSide): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  if (side.messages !== undefined && side.messages.length > 0)
    blocks.push({ kind: 'messages', messages: side.messages.map((m) => messageView(m.role, m.content)) });
  if (side.toolArguments !== undefined) blocks.push({ kind: 'json', label: 'Arguments', value: side.toolArguments });
  if (side.toolResult !== undefined) blocks.push({ kind: 'json', label: 'Result', value: side.toolResult });
  if (side.text !== undefined && side.text !== '') {
    const value = structuredText(side.text);
    blocks.push(value === undefined ? { kind: 'text', text: side.text } : { kind: 'json', label: 'Value', value });
  }
  return blocks;
}

/**
 * Text holding a JSON object or array, parsed: a step's structured input or
 * output (its state, what it returned) arrives as JSON text, and reads
 * better folded. Anything else, undefined.
 */
export function structuredText(text: string): object | undefined {
  const first = text.trimStart()[0];
  if (first !== '{' && first !== '[') return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}

const encoder = new TextEncoder();

function utf8Bytes(value: unknown): number {
  if (value === undefined) return 0;
  return encoder.encode(typeof value === 'string' ? value : JSON.stringify(value)).length;
}

/** UTF-8 bytes of every string of the content as served, counted as the server counts them when it cuts. */
export function contentBytes(content: Pick<SpanContent, 'input' | 'output'>): number {
  let total = 0;
  for (const side of [content.input, content.output]) {
    for (const m of side.messages ?? []) total += utf8Bytes(m.role) + utf8Bytes(m.content);
    total += utf8Bytes(side.toolArguments) + utf8Bytes(side.toolResult) + utf8Bytes(side.text);
  }
  return total;
}

export function prepareContent(content: SpanContent): ContentView {
  return {
    input: contentBlocks(content.input),
    output: contentBlocks(content.output),
    truncatedNote: content.truncated
      ? `truncated at storage (${formatCount(contentBytes(content))} of ${formatCount(content.originalBytes)} bytes)`
      : undefined,
    redactedNote:
      content.redactedStrings > 0
        ? `${formatCount(content.redactedStrings)} ${content.redactedStrings === 1 ? 'string' : 'strings'} redacted before export`
        : undefined,
  };
}

/** What the content query's state means for the panel: the content, or why there is none (`null`: none kept). */
export function contentState(query: {
  isPending: boolean;
  error: unknown;
  data: SpanContent | null | undefined;
}): ContentState {
  if (query.data === null) return { kind: 'none' };
  if (query.data !== undefined) return { kind: 'ready', view: prepareContent(query.data) };
  if (query.error !== null && query.error !== undefined) {
    if (isApiError(query.error) && query.error.status === 404) return { kind: 'none' };
    if (isApiError(query.error) && query.error.status === 403) return { kind: 'hidden' };
    return { kind: 'error', error: query.error };
  }
  return { kind: 'loading' };
}

/** A long text cut at `limit` characters (never inside a surrogate pair), and how many characters were left out. */
export function cutText(text: string, limit = TEXT_PREVIEW_CHARS): { shown: string; hiddenChars: number } {
  if (text.length <= limit) return { shown: text, hiddenChars: 0 };
  let end = limit;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return { shown: text.slice(0, end), hiddenChars: text.length - end };
}
