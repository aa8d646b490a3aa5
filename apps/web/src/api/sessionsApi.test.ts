import { describe, expect, it } from 'vitest';
import { sessionsUrl } from './sessionsApi';
import { sessionsPageSchema } from '@telltale/api-contract';

describe('sessions API client', () => {
  it('builds the URL, leaving out empty values', () => {
    expect(sessionsUrl({ limit: 50, offset: 100, service: 'a b', from: '1', to: '2' })).toBe(
      '/api/v1/sessions?limit=50&offset=100&service=a+b&from=1&to=2',
    );
    expect(sessionsUrl({ limit: 10, offset: 0, service: undefined })).toBe('/api/v1/sessions?limit=10&offset=0');
  });

  it('parses a page: nanosecond strings to bigint, unknown fields ignored, bad values rejected', () => {
    const session = {
      sessionId: 's',
      runs: 1,
      successRuns: 1,
      failureRuns: 0,
      incompleteRuns: 0,
      firstStartUnixNano: '1700000000000000001',
      lastEndUnixNano: '1700000000000000002',
      costUsd: 0,
      inputTokens: 0,
      outputTokens: 0,
      services: [],
      agents: [],
      extra: true,
    };
    const page = sessionsPageSchema.parse({ sessions: [session], total: 1, limit: 50, offset: 0 });
    expect(page.sessions[0]!.firstStartUnixNano).toBe(1_700_000_000_000_000_001n);
    expect(page.sessions[0]).not.toHaveProperty('extra');
    expect(
      sessionsPageSchema.safeParse({ sessions: [{ ...session, runs: -1 }], total: 1, limit: 50, offset: 0 }).success,
    ).toBe(false);
    expect(
      sessionsPageSchema.safeParse({ sessions: [{ ...session, lastEndUnixNano: 12 }], total: 1, limit: 50, offset: 0 })
        .success,
    ).toBe(false);
  });
});
