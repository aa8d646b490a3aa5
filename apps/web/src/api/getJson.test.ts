import { describe, expect, it } from 'vitest';
import { runSummaryJson } from '../testing/fixtures';
import { ApiError } from './ApiError';
import { fetchRun, fetchRuns, runsUrl } from './runsApi';

/** A `fetch` double that answers every request with one canned response and records URLs. */
function cannedFetch(status: number, body: unknown): typeof fetch & { urls: string[] } {
  const urls: string[] = [];
  const impl: typeof fetch = (input) => {
    urls.push(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    return Promise.resolve(new Response(text, { status, headers: { 'content-type': 'application/json' } }));
  };
  return Object.assign(impl, { urls });
}

describe('runs API client', () => {
  it('builds the runs URL, leaving out empty filters', () => {
    expect(runsUrl({ limit: 50, offset: 100 })).toBe('/api/v1/runs?limit=50&offset=100');
    expect(
      runsUrl({ limit: 50, offset: 0, outcome: 'failure', service: 'support bot', from: '2025-01-01T00:00:00Z' }),
    ).toBe('/api/v1/runs?limit=50&offset=0&outcome=failure&service=support+bot&from=2025-01-01T00%3A00%3A00Z');
    expect(runsUrl({ limit: 50, offset: 0, agent: 'triage', step: 'plan', tool: 'web.fetch', model: '' })).toBe(
      '/api/v1/runs?limit=50&offset=0&agent=triage&step=plan&tool=web.fetch',
    );
  });

  it('fetches and parses a runs page', async () => {
    const fetchDouble = cannedFetch(200, { runs: [runSummaryJson()], total: 1, limit: 50, offset: 0 });
    const page = await fetchRuns({ limit: 50, offset: 0 }, { fetch: fetchDouble });
    expect(page.total).toBe(1);
    expect(page.runs[0]?.runId).toBe('run-1');
  });

  it('turns the server error body into an ApiError', async () => {
    const fetchDouble = cannedFetch(404, { error: { code: 'NOT_FOUND', message: 'no run abc' } });
    const error = await fetchRun('a/b c', { fetch: fetchDouble }).catch((e: unknown) => e);
    expect(fetchDouble.urls).toEqual(['/api/v1/runs/a%2Fb%20c']);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'NOT_FOUND', message: 'no run abc', status: 404, isNotFound: true });
  });

  it('reports a non-JSON error body by HTTP status', async () => {
    const error = await fetchRuns(
      { limit: 50, offset: 0 },
      { fetch: cannedFetch(502, '<html>bad gateway</html>') },
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'HTTP', status: 502 });
  });

  it('reports a body that breaks the contract, with the path of the first issue', async () => {
    const fetchDouble = cannedFetch(200, { runs: [runSummaryJson({ steps: 'four' })], total: 1, limit: 50, offset: 0 });
    const error = await fetchRuns({ limit: 50, offset: 0 }, { fetch: fetchDouble }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'BAD_RESPONSE' });
    expect((error as ApiError).message).toContain('runs.0.steps');
  });

  it('reports an unreachable server as a network error', async () => {
    const failing: typeof fetch = () => Promise.reject(new TypeError('fetch failed'));
    const error = await fetchRuns({ limit: 50, offset: 0 }, { fetch: failing }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'NETWORK', status: 0 });
  });
});

describe('read key', () => {
  /** Records the headers of each request and answers with an empty runs page. */
  function recordingFetch(): typeof fetch & { headers: Headers[] } {
    const headers: Headers[] = [];
    const impl: typeof fetch = (_input, init) => {
      headers.push(new Headers(init?.headers));
      return Promise.resolve(
        new Response(JSON.stringify({ runs: [], total: 0, limit: 50, offset: 0 }), { status: 200 }),
      );
    };
    return Object.assign(impl, { headers });
  }

  it('sends a read key as Authorization: Bearer, and nothing without one', async () => {
    const fetchDouble = recordingFetch();
    await fetchRuns({ limit: 50, offset: 0 }, { fetch: fetchDouble, readKey: 'tt_read_abc' });
    await fetchRuns({ limit: 50, offset: 0 }, { fetch: fetchDouble, readKey: undefined });
    // no browser storage here: no stored key either
    await fetchRuns({ limit: 50, offset: 0 }, { fetch: fetchDouble });
    expect(fetchDouble.headers.map((h) => h.get('authorization'))).toEqual(['Bearer tt_read_abc', null, null]);
  });

  it('reports a 401 with its status, for the dashboard to ask for a key', async () => {
    const error = await fetchRuns(
      { limit: 50, offset: 0 },
      { fetch: cannedFetch(401, { error: { code: 'UNAUTHORIZED', message: 'missing API key' } }) },
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
  });
});
