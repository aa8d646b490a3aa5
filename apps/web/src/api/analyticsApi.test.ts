import { describe, expect, it } from 'vitest';
import { stepJson, est } from '../testing/analyticsFixtures';
import { analyticsUrl, fetchAnalytics } from './analyticsApi';
import { ApiError } from './ApiError';

function cannedFetch(body: unknown): typeof fetch & { urls: string[] } {
  const urls: string[] = [];
  const impl: typeof fetch = (input) => {
    urls.push(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    return Promise.resolve(new Response(JSON.stringify(body), { status: 200 }));
  };
  return Object.assign(impl, { urls });
}

describe('analytics API client', () => {
  it('builds route URLs, leaving out empty values', () => {
    expect(analyticsUrl('loops', { from: '1', to: '2', service: '', kind: undefined, limit: 50 })).toBe(
      '/api/v1/loops?from=1&to=2&limit=50',
    );
    expect(analyticsUrl('cost/summary', {})).toBe('/api/v1/cost/summary');
  });

  it('parses a reliability summary, unknown estimates as null', async () => {
    const body = {
      runs: { success: 0, failure: 0, incomplete: 2 },
      observed: est(null, null, null, 0),
      predicted: est(null, null, null, 0),
      gap: { value: null, low: null, high: null, n: 0 },
      decomposition: { stepExplainedFailures: 0, seamFailures: 0, fallbackRecoveries: 0 },
      agents: [],
      steps: [stepJson('plan', 1, null, 0, { whatIfGain: null })],
      whatIfTarget: 0.99,
    };
    const fetchDouble = cannedFetch(body);
    const summary = await fetchAnalytics(
      'reliabilitySummary',
      { from: '1', to: '2' },
      { fetch: fetchDouble, readKey: undefined },
    );
    expect(fetchDouble.urls).toEqual(['/api/v1/reliability/summary?from=1&to=2']);
    expect(summary.observed.value).toBeNull();
    expect(summary.steps[0]?.whatIfGain).toBeNull();
  });

  it('rejects a response that breaks the contract', async () => {
    const error = await fetchAnalytics(
      'failures',
      {},
      { fetch: cannedFetch({ failedRuns: 1, causes: [{ cause: 'gremlins', runs: 1, share: 1 }] }), readKey: undefined },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toContain('causes.0.cause');
  });
});
