import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TelltaleError } from '@telltale/semconv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../Store.js';
import { createProject, getProject, listProjects, updateProject } from '../projects/projects.js';
import { insertApiKey, listApiKeyRecords, listApiKeys, revokeApiKey } from './apiKeys.js';
import { clientOf } from '../internal/storeRunners.js';

const HASH_A = 'a'.repeat(64);
const HASH_B = '0123456789abcdef'.repeat(4);

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof TelltaleError) return err.code;
    throw err;
  }
  throw new Error('expected a TelltaleError');
}

describe('projects and API keys in the store', () => {
  let dir: string;
  let store: Store;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-keys-'));
    store = await Store.open({ kind: 'embedded', dataDir: dir });
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates, lists, reads and updates projects; an id is created once', async () => {
    const before = Date.now();
    const shop = await createProject(clientOf(store), { id: 'shop', name: 'The shop', maxSpansPerSecond: 500 });
    expect(shop).toMatchObject({ id: 'shop', name: 'The shop', maxSpansPerSecond: 500 });
    expect(shop.createdAtMs).toBeGreaterThanOrEqual(before);
    await createProject(clientOf(store), { id: 'ops-2' });
    expect(await codeOf(createProject(clientOf(store), { id: 'shop' }))).toBe('CONFLICT');

    expect((await listProjects(clientOf(store))).map((p) => [p.id, p.name, p.maxSpansPerSecond])).toEqual([
      ['ops-2', 'ops-2', undefined],
      ['shop', 'The shop', 500],
    ]);
    expect(await updateProject(clientOf(store), 'shop', { maxSpansPerSecond: 50 })).toMatchObject({
      name: 'The shop',
      maxSpansPerSecond: 50,
      createdAtMs: shop.createdAtMs,
    });
    expect((await getProject(clientOf(store), 'shop'))?.maxSpansPerSecond).toBe(50);
    await updateProject(clientOf(store), 'shop', { maxSpansPerSecond: null, name: 'Shop' });
    expect(await getProject(clientOf(store), 'shop')).toEqual({
      id: 'shop',
      name: 'Shop',
      maxSpansPerSecond: undefined,
      createdAtMs: shop.createdAtMs,
      contentStored: true,
      contentReadable: false,
    });
    // the content switches change alone, and keep the rest
    expect(await updateProject(clientOf(store), 'shop', { contentStored: false, contentReadable: true })).toEqual({
      id: 'shop',
      name: 'Shop',
      maxSpansPerSecond: undefined,
      createdAtMs: shop.createdAtMs,
      contentStored: false,
      contentReadable: true,
    });
    expect(await getProject(clientOf(store), 'shop')).toMatchObject({ contentStored: false, contentReadable: true });
    expect(await getProject(clientOf(store), 'nope')).toBeUndefined();
    expect(await codeOf(updateProject(clientOf(store), 'nope', { name: 'x' }))).toBe('NOT_FOUND');
  });

  it('refuses project ids that are not slugs and nonsense quotas', async () => {
    for (const id of ['', 'Shop', 'a b', '-lead', 'x'.repeat(65), "a';DROP"]) {
      expect(await codeOf(createProject(clientOf(store), { id })), id).toBe('BAD_REQUEST');
    }
    for (const maxSpansPerSecond of [0, -1, 1.5, Number.NaN]) {
      expect(
        await codeOf(createProject(clientOf(store), { id: 'quota', maxSpansPerSecond })),
        String(maxSpansPerSecond),
      ).toBe('BAD_REQUEST');
    }
  });

  it('stores keys with their hash, lists them without it, and revokes once', async () => {
    const created = await insertApiKey(clientOf(store), {
      keyId: 'KeyA0000000000001',
      projectId: 'shop',
      kind: 'ingest',
      name: 'ci',
      secretSha256: HASH_A,
    });
    expect(created).toMatchObject({
      keyId: 'KeyA0000000000001',
      projectId: 'shop',
      kind: 'ingest',
      name: 'ci',
      revokedAtMs: undefined,
    });
    expect(created).not.toHaveProperty('secretSha256');
    await insertApiKey(clientOf(store), {
      keyId: 'KeyB0000000000001',
      projectId: 'shop',
      kind: 'read',
      secretSha256: HASH_B,
    });
    await insertApiKey(clientOf(store), {
      keyId: 'KeyC0000000000001',
      projectId: 'ops-2',
      kind: 'read',
      secretSha256: HASH_B,
    });

    const listed = await listApiKeys(clientOf(store), 'shop');
    expect(listed.map((k) => [k.keyId, k.kind, k.name])).toEqual([
      ['KeyA0000000000001', 'ingest', 'ci'],
      ['KeyB0000000000001', 'read', ''],
    ]);
    expect(JSON.stringify(listed)).not.toContain(HASH_A);

    const revoked = await revokeApiKey(clientOf(store), 'KeyA0000000000001');
    expect(revoked.revokedAtMs).toBeGreaterThanOrEqual(created.createdAtMs);
    // a second revoke keeps the first time
    expect((await revokeApiKey(clientOf(store), 'KeyA0000000000001')).revokedAtMs).toBe(revoked.revokedAtMs);
    await clientOf(store).command({ query: 'OPTIMIZE TABLE api_keys FINAL' });

    const records = await listApiKeyRecords(clientOf(store));
    expect(records.map((r) => [r.keyId, r.projectId, r.secretSha256, r.revokedAtMs === undefined])).toEqual([
      ['KeyA0000000000001', 'shop', HASH_A, false],
      ['KeyB0000000000001', 'shop', HASH_B, true],
      ['KeyC0000000000001', 'ops-2', HASH_B, true],
    ]);
    expect((await listApiKeys(clientOf(store), 'shop'))[0]!.revokedAtMs).toBe(revoked.revokedAtMs);
  });

  it('refuses keys of unknown projects, taken ids, malformed ids and hashes', async () => {
    expect(
      await codeOf(
        insertApiKey(clientOf(store), {
          keyId: 'KeyD0000000000001',
          projectId: 'ghost',
          kind: 'read',
          secretSha256: HASH_A,
        }),
      ),
    ).toBe('NOT_FOUND');
    expect(
      await codeOf(
        insertApiKey(clientOf(store), {
          keyId: 'KeyB0000000000001',
          projectId: 'shop',
          kind: 'read',
          secretSha256: HASH_A,
        }),
      ),
    ).toBe('CONFLICT');
    expect(
      await codeOf(
        insertApiKey(clientOf(store), { keyId: 'short', projectId: 'shop', kind: 'read', secretSha256: HASH_A }),
      ),
    ).toBe('BAD_REQUEST');
    expect(
      await codeOf(
        insertApiKey(clientOf(store), {
          keyId: 'KeyE0000000000001',
          projectId: 'shop',
          kind: 'read',
          secretSha256: 'tt_read_plaintext',
        }),
      ),
    ).toBe('BAD_REQUEST');
    expect(await codeOf(revokeApiKey(clientOf(store), 'KeyZ0000000000001'))).toBe('NOT_FOUND');
  });
});
