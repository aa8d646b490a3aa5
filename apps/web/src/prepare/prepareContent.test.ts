import type { SpanContent } from '@telltale/api-contract';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/ApiError';
import { contentBytes, contentState, cutText, prepareContent } from './prepareContent';

function spanContent(overrides: Partial<SpanContent> = {}): SpanContent {
  return {
    traceId: 't',
    spanId: 's',
    input: {},
    output: {},
    truncated: false,
    originalBytes: 0,
    capture: 'full',
    redactedStrings: 0,
    ...overrides,
  };
}

describe('prepareContent', () => {
  it('labels messages by role and keeps unknown roles as named', () => {
    const view = prepareContent(
      spanContent({
        input: {
          messages: [
            { role: 'system', content: 'be brief' },
            { role: 'user', content: 'hi' },
            { role: 'critic', content: 'hm' },
          ],
        },
        output: { messages: [{ role: 'assistant', content: 'hello' }] },
      }),
    );
    expect(view.input).toEqual([
      {
        kind: 'messages',
        messages: [
          { role: 'system', roleLabel: 'System', roleClass: 'system', text: 'be brief' },
          { role: 'user', roleLabel: 'User', roleClass: 'user', text: 'hi' },
          { role: 'critic', roleLabel: 'critic', roleClass: 'other', text: 'hm' },
        ],
      },
    ]);
    expect(view.output).toEqual([
      {
        kind: 'messages',
        messages: [{ role: 'assistant', roleLabel: 'Assistant', roleClass: 'assistant', text: 'hello' }],
      },
    ]);
    expect(view.truncatedNote).toBeUndefined();
    expect(view.redactedNote).toBeUndefined();
  });

  it('shows tool arguments and results as JSON blocks and text as text', () => {
    const view = prepareContent(
      spanContent({
        input: { toolArguments: { q: 'x' }, text: 'also' },
        output: { toolResult: [1, 2] },
        redactedStrings: 2,
      }),
    );
    expect(view.input).toEqual([
      { kind: 'json', label: 'Arguments', value: { q: 'x' } },
      { kind: 'text', text: 'also' },
    ]);
    expect(view.output).toEqual([{ kind: 'json', label: 'Result', value: [1, 2] }]);
    expect(view.redactedNote).toBe('2 strings redacted before export');
  });

  it('folds text that holds a JSON object or array, and leaves any other text as text', () => {
    const view = prepareContent(
      spanContent({ input: { text: ' {"service":"search","round":2}' }, output: { text: '[1, "a"]' } }),
    );
    expect(view.input).toEqual([{ kind: 'json', label: 'Value', value: { service: 'search', round: 2 } }]);
    expect(view.output).toEqual([{ kind: 'json', label: 'Value', value: [1, 'a'] }]);
    for (const text of ['{not json', '"quoted"', '42', 'null', 'plain words'])
      expect(prepareContent(spanContent({ input: { text } })).input).toEqual([{ kind: 'text', text }]);
  });

  it('says how much the server kept of truncated content, counting bytes as the server does', () => {
    const c = spanContent({
      input: { messages: [{ role: 'user', content: 'üü' }], toolArguments: { a: 1 } },
      output: { toolResult: 'cut' },
      truncated: true,
      originalBytes: 5_000_004,
    });
    expect(contentBytes(c)).toBe(4 + 4 + '{"a":1}'.length + 3);
    expect(prepareContent(c).truncatedNote).toBe('truncated at storage (18 of 5,000,004 bytes)');
  });
});

describe('contentState', () => {
  it('reads 404 as nothing kept, 403 as hidden, other errors as errors', () => {
    const err = (status: number) => new ApiError({ code: 'X', message: 'm', status });
    expect(contentState({ isPending: false, error: err(404), data: undefined })).toEqual({ kind: 'none' });
    expect(contentState({ isPending: false, error: null, data: null })).toEqual({ kind: 'none' });
    expect(contentState({ isPending: false, error: err(403), data: undefined })).toEqual({ kind: 'hidden' });
    expect(contentState({ isPending: false, error: err(500), data: undefined }).kind).toBe('error');
    expect(contentState({ isPending: true, error: null, data: undefined })).toEqual({ kind: 'loading' });
    expect(contentState({ isPending: false, error: null, data: spanContent() }).kind).toBe('ready');
  });
});

describe('cutText', () => {
  it('leaves short text whole and cuts long text, never inside a surrogate pair', () => {
    expect(cutText('abc', 3)).toEqual({ shown: 'abc', hiddenChars: 0 });
    expect(cutText('abcdef', 4)).toEqual({ shown: 'abcd', hiddenChars: 2 });
    expect(cutText('a😀b', 2)).toEqual({ shown: 'a', hiddenChars: 3 });
    expect(cutText('x'.repeat(2_500)).shown).toHaveLength(2_000);
  });
});
