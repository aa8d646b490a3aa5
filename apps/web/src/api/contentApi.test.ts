import { describe, expect, it } from 'vitest';
import { cannedFetch } from '../testing/cannedFetch';
import {
  fetchRunContent,
  fetchRunContentSpans,
  fetchSpanContent,
  runContentSpansUrl,
  runContentUrl,
  spanContentUrl,
} from './contentApi';

const content = {
  traceId: 't',
  spanId: '0123456789abcdef',
  input: { toolArguments: { q: 'refund' } },
  output: { toolResult: 'ok' },
  truncated: false,
  originalBytes: 16,
  capture: 'full',
  redactedStrings: 0,
};

describe('content API client', () => {
  it('builds the per-span and per-run URLs, escaping the run id', () => {
    expect(spanContentUrl('run/1', '0123456789abcdef')).toBe('/api/v1/runs/run%2F1/spans/0123456789abcdef/content');
    expect(runContentUrl('r 1')).toBe('/api/v1/runs/r%201/content');
    expect(runContentSpansUrl('r/1')).toBe('/api/v1/runs/r%2F1/content/spans');
  });

  it('parses one span’s content and a run’s', async () => {
    const one = cannedFetch(200, { content });
    expect(await fetchSpanContent('r', '0123456789abcdef', { fetch: one, readKey: 'k' })).toEqual(content);
    expect(one.requests[0]).toMatchObject({ method: 'GET', authorization: 'Bearer k' });
    const all = cannedFetch(200, { spans: [content], limit: 500 });
    expect(await fetchRunContent('r', { fetch: all, readKey: undefined })).toEqual({ spans: [content], limit: 500 });
    const index = cannedFetch(200, { spanIds: ['0123456789abcdef'], limit: 10_000 });
    expect(await fetchRunContentSpans('r', { fetch: index, readKey: undefined })).toEqual({
      spanIds: ['0123456789abcdef'],
      limit: 10_000,
    });
  });

  it('turns 404 and 403 into ApiErrors with their status, and rejects a body that breaks the contract', async () => {
    const notFound = cannedFetch(404, { error: { code: 'NOT_FOUND', message: 'no content kept' } });
    await expect(fetchSpanContent('r', 's', { fetch: notFound, readKey: undefined })).rejects.toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    });
    const hidden = cannedFetch(403, { error: { code: 'FORBIDDEN', message: 'contentReadable' } });
    await expect(fetchSpanContent('r', 's', { fetch: hidden, readKey: undefined })).rejects.toMatchObject({
      status: 403,
    });
    const bad = cannedFetch(200, { content: { ...content, truncated: 'no' } });
    await expect(fetchSpanContent('r', 's', { fetch: bad, readKey: undefined })).rejects.toMatchObject({
      code: 'BAD_RESPONSE',
    });
  });
});
