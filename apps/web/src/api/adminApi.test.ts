import { describe, expect, it } from 'vitest';
import { adminUrls, createKey, fetchProjectKeys, fetchProjects, revokeKey } from './adminApi';
import { ApiError } from './ApiError';
import { cannedFetch } from '../testing/cannedFetch';

const KEY = {
  keyId: 'AbCdEfGh12345678',
  projectId: 'shop',
  kind: 'ingest',
  name: 'ci',
  prefix: 'tt_ingest_AbCdEfGh12345678_',
  createdAtMs: 1,
  revokedAtMs: null,
};

const CONTENT = { contentStored: true, contentReadable: false, contentDroppedSpans: 0 };

describe('admin API client', () => {
  it('escapes ids in URLs', () => {
    expect(adminUrls.projectKeys('a/b')).toBe('/api/v1/admin/projects/a%2Fb/keys');
    expect(adminUrls.revokeKey('K1')).toBe('/api/v1/admin/keys/K1/revoke');
  });

  it('sends the admin key given, as the bearer', async () => {
    const fetch = cannedFetch(200, {
      projects: [{ id: 'shop', name: 'Shop', maxSpansPerSecond: null, createdAtMs: 1, ...CONTENT }],
      auth: 'keys',
    });
    expect(await fetchProjects({ fetch, readKey: 'admin-secret' })).toEqual({
      projects: [{ id: 'shop', name: 'Shop', maxSpansPerSecond: null, createdAtMs: 1, ...CONTENT }],
      auth: 'keys',
    });
    expect(fetch.requests[0]).toMatchObject({
      url: '/api/v1/admin/projects',
      method: 'GET',
      authorization: 'Bearer admin-secret',
    });
  });

  it('creates a key (answering the secret) and revokes one', async () => {
    const created = cannedFetch(201, { key: KEY, secret: 'tt_ingest_AbCdEfGh12345678_s3cret' });
    const answer = await createKey('shop', { kind: 'ingest', name: 'ci' }, { fetch: created, readKey: undefined });
    expect(answer.secret).toBe('tt_ingest_AbCdEfGh12345678_s3cret');
    expect(created.requests[0]).toMatchObject({
      method: 'POST',
      url: '/api/v1/admin/projects/shop/keys',
      body: { kind: 'ingest', name: 'ci' },
      authorization: null,
    });
    const revoked = cannedFetch(200, { key: { ...KEY, revokedAtMs: 5 } });
    expect((await revokeKey(KEY.keyId, { fetch: revoked })).revokedAtMs).toBe(5);
    expect(revoked.requests[0]).toMatchObject({ method: 'POST', url: `/api/v1/admin/keys/${KEY.keyId}/revoke` });
  });

  it("turns the server's refusal into an ApiError, and a body off the contract too", async () => {
    const refused = cannedFetch(403, {
      error: { code: 'FORBIDDEN', message: 'a read key cannot use the admin API' },
    });
    const err = await fetchProjectKeys('shop', { fetch: refused }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({
      status: 403,
      code: 'FORBIDDEN',
      message: 'a read key cannot use the admin API',
    });
    const odd = cannedFetch(200, { keys: [{ ...KEY, secretSha256: 'x', kind: 'admin' }] });
    await expect(fetchProjectKeys('shop', { fetch: odd })).rejects.toMatchObject({ code: 'BAD_RESPONSE' });
  });
});
