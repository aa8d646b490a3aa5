import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiKeyKind } from '@telltale/semconv';
import { Store } from '@telltale/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from './apiKey.js';
import { KeyCache } from './KeyCache.js';
import { loadKeySnapshot } from './loadKeySnapshot.js';

describe('KeyCache over the store', () => {
  let dir: string;
  let store: Store;
  const caches: KeyCache[] = [];

  async function newKey(projectId: string, kind: ApiKeyKind): Promise<string> {
    const key = generateApiKey(kind);
    await store.auth.insertApiKey({ keyId: key.keyId, projectId, kind, secretSha256: key.secretSha256 });
    return key.key;
  }

  /** A cache over the real store whose loads can be made to fail. */
  async function openCache(
    opts: { refreshMs?: number; missRefreshMinMs?: number; failing?: { now: boolean } } = {},
  ): Promise<KeyCache> {
    const cache = await KeyCache.open({
      load: () => (opts.failing?.now === true ? Promise.reject(new Error('storage down')) : loadKeySnapshot(store)),
      refreshMs: opts.refreshMs ?? 60_000,
      missRefreshMinMs: opts.missRefreshMinMs ?? 1_000,
      onError: () => undefined,
    });
    caches.push(cache);
    return cache;
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-keycache-'));
    store = await Store.open({ kind: 'embedded', dataDir: dir });
    await store.auth.createProject({ id: 'alpha', maxSpansPerSecond: 100 });
    await store.auth.createProject({ id: 'beta' });
  });
  afterAll(async () => {
    for (const cache of caches) cache.stop();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('verifies keys from memory: project, kind, wrong secrets and forged prefixes', async () => {
    const ingest = await newKey('alpha', 'ingest');
    const read = await newKey('beta', 'read');
    const cache = await openCache();
    const loads = cache.loads;
    expect(await cache.check(ingest)).toEqual({
      status: 'ok',
      key: { keyId: ingest.split('_')[2], projectId: 'alpha', kind: 'ingest' },
    });
    expect(await cache.check(read)).toMatchObject({ status: 'ok', key: { projectId: 'beta', kind: 'read' } });
    const last = ingest.at(-1) === 'A' ? 'B' : 'A';
    expect(await cache.check(`${ingest.slice(0, -1)}${last}`)).toEqual({ status: 'invalid' });
    // an ingest key relabelled as a read key is not a read key
    expect(await cache.check(ingest.replace('tt_ingest_', 'tt_read_'))).toEqual({ status: 'invalid' });
    expect(await cache.check('not-a-key')).toEqual({ status: 'invalid' });
    expect(cache.loads).toBe(loads);
    expect(cache.quotaOf('alpha')).toBe(100);
    expect(cache.quotaOf('beta')).toBeUndefined();
  });

  it('finds keys created after it loaded on first use, and a sprayer of random keys gets one reload per interval', async () => {
    const cache = await openCache({ missRefreshMinMs: 200 });
    const fresh = await newKey('alpha', 'read');
    const loads = cache.loads;
    expect((await cache.check(fresh)).status).toBe('ok');
    expect(cache.loads).toBe(loads + 1);
    // a second new key right after: waits for the next reload instead of failing
    const second = await newKey('beta', 'ingest');
    expect(await cache.check(second)).toMatchObject({ status: 'ok', key: { projectId: 'beta' } });
    expect(cache.loads).toBe(loads + 2);

    const sprayStart = Date.now();
    const sprayed: Promise<{ status: string }>[] = [];
    let legit: Promise<{ status: string }> | undefined;
    while (Date.now() - sprayStart < 1_000) {
      sprayed.push(cache.check(generateApiKey('ingest').key));
      if (legit === undefined && Date.now() - sprayStart > 500)
        legit = newKey('alpha', 'ingest').then((key) => cache.check(key));
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const results = await Promise.all(sprayed);
    expect(results.length).toBeGreaterThan(20);
    expect(new Set(results.map((r) => r.status))).toEqual(new Set(['invalid']));
    expect((await legit)?.status).toBe('ok');
    // ~1.2 s of spraying at one reload per 200 ms
    expect(cache.loads - (loads + 2)).toBeLessThanOrEqual(8);
  });

  it('reports a revoked key as revoked once reloaded, and picks up quota changes', async () => {
    const key = await newKey('alpha', 'ingest');
    const cache = await openCache({ refreshMs: 50 });
    expect((await cache.check(key)).status).toBe('ok');
    await store.auth.revokeApiKey(key.split('_')[2]!);
    await store.auth.updateProject('beta', { maxSpansPerSecond: 7 });
    const deadline = Date.now() + 5_000;
    // the two changes may land in different reloads
    while (((await cache.check(key)).status === 'ok' || cache.quotaOf('beta') === undefined) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    expect(await cache.check(key)).toMatchObject({ status: 'revoked', key: { projectId: 'alpha' } });
    expect(cache.quotaOf('beta')).toBe(7);
  });

  it('keeps serving known keys when a reload fails, and says unavailable for unknown ones', async () => {
    const known = await newKey('beta', 'read');
    const failing = { now: false };
    const cache = await openCache({ failing });
    failing.now = true;
    expect(await cache.refresh()).toBe(false);
    expect((await cache.check(known)).status).toBe('ok');
    expect(await cache.check(generateApiKey('read').key)).toEqual({ status: 'unavailable' });
  });

  it('does not open over a store it cannot read', async () => {
    await expect(
      KeyCache.open({ load: () => Promise.reject(new Error('storage down')), refreshMs: 1_000 }),
    ).rejects.toThrow('storage down');
  });
});
