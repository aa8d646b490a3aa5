import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TelltaleError } from '@telltale/semconv';
import { Store } from '@telltale/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from './apiKey.js';
import { Authenticator } from './Authenticator.js';
import { KeyCache } from './KeyCache.js';
import { loadKeySnapshot } from './loadKeySnapshot.js';

async function failure(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof TelltaleError)) throw new Error(`expected a TelltaleError, got ${String(err)}`);
  return { code: err.code, message: err.message };
}

describe('Authenticator', () => {
  let dir: string;
  let store: Store;
  let cache: KeyCache;
  let auth: Authenticator;
  const storeDown = { now: false };
  const ingest = generateApiKey('ingest');
  const read = generateApiKey('read');
  const revoked = generateApiKey('read');

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-authn-'));
    store = await Store.open({ kind: 'embedded', dataDir: dir });
    await store.auth.createProject({ id: 'p' });
    for (const key of [ingest, read, revoked])
      await store.auth.insertApiKey({
        keyId: key.keyId,
        projectId: 'p',
        kind: key.kind,
        secretSha256: key.secretSha256,
      });
    await store.auth.revokeApiKey(revoked.keyId);
    cache = await KeyCache.open({
      load: () => (storeDown.now ? Promise.reject(new Error('down')) : loadKeySnapshot(store)),
      refreshMs: 60_000,
      onError: () => undefined,
    });
    auth = new Authenticator(cache);
  });
  afterAll(async () => {
    cache.stop();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("gives the key's project to a key of the needed kind", async () => {
    expect(await auth.projectOf(`Bearer ${ingest.key}`, 'ingest')).toBe('p');
    expect(await auth.projectOf(`bearer ${read.key}`, 'read')).toBe('p');
  });

  it('answers UNAUTHORIZED, FORBIDDEN or UNAVAILABLE with a message saying why', async () => {
    expect(await failure(auth.projectOf(undefined, 'read'))).toEqual({
      code: 'UNAUTHORIZED',
      message: 'missing API key: send Authorization: Bearer <key>',
    });
    expect(await failure(auth.projectOf(`Basic ${read.key}`, 'read'))).toMatchObject({ code: 'UNAUTHORIZED' });
    expect(await failure(auth.projectOf(`Bearer ${generateApiKey('read').key}`, 'read'))).toEqual({
      code: 'UNAUTHORIZED',
      message: 'invalid API key',
    });
    expect(await failure(auth.projectOf(`Bearer ${revoked.key}`, 'read'))).toEqual({
      code: 'UNAUTHORIZED',
      message: `API key ${revoked.keyId} has been revoked`,
    });
    expect(await failure(auth.projectOf(`Bearer ${read.key}`, 'ingest'))).toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringContaining('a read key cannot send spans') as unknown,
    });
    expect(await failure(auth.projectOf(`Bearer ${ingest.key}`, 'read'))).toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringContaining('an ingest key cannot call the API') as unknown,
    });
    storeDown.now = true;
    expect(await failure(auth.projectOf(`Bearer ${generateApiKey('read').key}`, 'read'))).toMatchObject({
      code: 'UNAVAILABLE',
    });
    // known keys keep working while the store is down
    expect(await auth.projectOf(`Bearer ${read.key}`, 'read')).toBe('p');
  });
});
