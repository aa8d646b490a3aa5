import { describe, expect, it } from 'vitest';
import { API_ROUTES } from './apiRoutes.js';
import { runsPageSchema } from './runs.js';

describe('API_ROUTES', () => {
  it('keys every route by its method and path', () => {
    for (const [key, route] of Object.entries(API_ROUTES)) expect(key).toBe(`${route.method} ${route.path}`);
    expect(Object.keys(API_ROUTES).length).toBeGreaterThan(40);
  });

  it('declares a params schema exactly for the paths with parameters', () => {
    for (const [key, route] of Object.entries(API_ROUTES)) {
      const names = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
      const declared = 'params' in route ? Object.keys(route.params.shape) : [];
      expect(declared, key).toEqual(names);
    }
  });
});

describe('response schemas', () => {
  it('parse the wire form into brand units and drop unknown fields', () => {
    const run = {
      runId: 'r',
      traceId: 't',
      name: 'n',
      service: 's',
      outcome: 'success',
      startTimeUnixNano: '1700000000000000001',
      durationNs: '2500',
    };
    const counts = { steps: 1, spans: 2, costUsd: 0.5, inputTokens: 3, outputTokens: 4, errorType: '', extra: true };
    const page = runsPageSchema.parse({ runs: [{ ...run, ...counts }], total: 1, limit: 50, offset: 0 });
    expect(page.runs[0]!.startTimeUnixNano).toBe(1_700_000_000_000_000_001n);
    expect(page.runs[0]!.durationNs).toBe(2500);
    expect(page.runs[0]).not.toHaveProperty('extra');
    expect(page.runs[0]!.sessionId).toBe('');
    expect(
      runsPageSchema.safeParse({ runs: [{ ...run, ...counts, durationNs: 12 }], total: 1, limit: 50, offset: 0 })
        .success,
    ).toBe(false);
  });
});
