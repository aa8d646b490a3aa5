import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Analytics } from '@telltale/analytics';
import { Store } from '@telltale/store';
import { makeSpan } from '@telltale/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminGate } from '../auth/AdminGate.js';
import { generateApiKey } from '../auth/apiKey.js';
import { Authenticator } from '../auth/Authenticator.js';
import { KeyCache } from '../auth/KeyCache.js';
import { loadKeySnapshot } from '../auth/loadKeySnapshot.js';
import { createApiApp, type ApiAppOptions } from './createApiApp.js';

const ADMIN_KEY = 'admin-0123456789abcdef0123456789abcdef';

interface Answer<T> {
  status: number;
  body: T;
}
type ErrorBody = { error: { code: string; message: string } };
interface KeyView {
  keyId: string;
  projectId: string;
  kind: string;
  name: string;
  prefix: string;
  createdAtMs: number;
  revokedAtMs: number | null;
}

/**
 * The admin routes on the real store, behind the three gates a server can
 * have: `--auth keys --admin-key`, `--auth keys` alone, and open mode. One
 * store serves all three apps (one embedded engine per process).
 */
describe('/api/v1/admin', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'telltale-admin-api-'));
  let store: Store;
  let cache: KeyCache;
  const servers: Server[] = [];
  const urls = { keys: '', keysNoAdmin: '', open: '' };
  const projectKeys = { read: '', ingest: '' };

  async function listen(opts: Omit<ApiAppOptions, 'store' | 'analytics' | 'onInternalError'>): Promise<string> {
    const server = createServer(
      createApiApp({ store, analytics: new Analytics(store), onInternalError: (err) => console.error(err), ...opts }),
    );
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async function call<T = Record<string, unknown>>(
    base: string,
    method: string,
    path: string,
    opts: { key?: string; body?: unknown } = {},
  ): Promise<Answer<T>> {
    const headers: Record<string, string> = {};
    if (opts.key !== undefined) headers.authorization = `Bearer ${opts.key}`;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${base}/api/v1${path}`, {
      method,
      headers,
      ...(opts.body === undefined ? {} : { body: JSON.stringify(opts.body) }),
    });
    return { status: res.status, body: (await res.json()) as T };
  }
  const admin = <T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<Answer<T>> =>
    call<T>(urls.keys, method, path, { key: ADMIN_KEY, ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    store = await Store.open({ kind: 'embedded', dataDir });
    await store.auth.createProject({ id: 'seed' });
    for (const kind of ['read', 'ingest'] as const) {
      const key = generateApiKey(kind);
      await store.auth.insertApiKey({ keyId: key.keyId, projectId: 'seed', kind, secretSha256: key.secretSha256 });
      projectKeys[kind] = key.key;
    }
    // a long refresh: only the admin routes' own reload can make a change visible within these tests
    cache = await KeyCache.open({ load: () => loadKeySnapshot(store), refreshMs: 600_000 });
    const authenticator = new Authenticator(cache);
    const authenticate = (req: { headers: { authorization?: string | undefined } }): Promise<string> =>
      authenticator.projectOf(req.headers.authorization, 'read');
    const gate = new AdminGate('keys', ADMIN_KEY);
    urls.keys = await listen({
      authenticate,
      admin: { authorize: (req) => gate.check(req.headers.authorization), onChange: () => cache.refresh() },
    });
    urls.keysNoAdmin = await listen({ authenticate });
    const open = new AdminGate('none');
    urls.open = await listen({ admin: { authorize: (req) => open.check(req.headers.authorization) } });
  });

  afterAll(async () => {
    cache.stop();
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('with --auth keys, refuses every caller but the admin key', async () => {
    const cases: Array<[string, string | undefined, number, RegExp]> = [
      ['no key', undefined, 401, /missing admin key/],
      ['read key', projectKeys.read, 403, /a read key cannot use the admin API/],
      ['ingest key', projectKeys.ingest, 403, /an ingest key cannot use the admin API/],
      ['wrong admin key', `${ADMIN_KEY.slice(0, -1)}x`, 401, /invalid admin key/],
      ['admin key with a suffix', `${ADMIN_KEY}x`, 401, /invalid admin key/],
    ];
    for (const [what, key, status, message] of cases) {
      for (const [method, path, body] of [
        ['GET', '/admin/projects', undefined],
        ['POST', '/admin/projects', { id: 'sneaky' }],
        ['POST', '/admin/projects/seed/keys', { kind: 'read' }],
        ['DELETE', '/admin/projects/seed/runs/some-run', undefined],
      ] as const) {
        const res = await call<ErrorBody>(urls.keys, method, path, {
          ...(key === undefined ? {} : { key }),
          ...(body === undefined ? {} : { body }),
        });
        expect(res.status, `${what}: ${method} ${path}`).toBe(status);
        expect(res.body.error.message, what).toMatch(message);
      }
    }
    expect(
      (await admin<{ projects: Array<{ id: string }> }>('GET', '/admin/projects')).body.projects.map((p) => p.id),
    ).toEqual(['seed']);
  });

  it('with --auth keys and no admin key, the admin API is off whatever is sent', async () => {
    for (const key of [undefined, ADMIN_KEY, projectKeys.read]) {
      const res = await call<ErrorBody>(urls.keysNoAdmin, 'GET', '/admin/projects', key === undefined ? {} : { key });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
      expect(res.body.error.message).toMatch(/admin API is off/);
    }
  });

  it('the admin key opens no project route: those still take a read key', async () => {
    const res = await call<ErrorBody>(urls.keys, 'GET', '/runs', { key: ADMIN_KEY });
    expect(res.status).toBe(401);
    expect((await call(urls.keys, 'GET', '/runs', { key: projectKeys.read })).status).toBe(200);
  });

  it('creates, reads, updates and lists projects with their quotas', async () => {
    const created = await admin<{ project: Record<string, unknown> }>('POST', '/admin/projects', {
      id: 'shop',
      name: 'The shop',
      maxSpansPerSecond: 500,
    });
    expect(created.status).toBe(201);
    expect(created.body.project).toMatchObject({ id: 'shop', name: 'The shop', maxSpansPerSecond: 500 });
    expect((await admin<ErrorBody>('POST', '/admin/projects', { id: 'shop' })).status).toBe(409);
    const updated = await admin<{ project: Record<string, unknown> }>('PUT', '/admin/projects/shop', {
      maxSpansPerSecond: null,
    });
    expect(updated.body.project).toMatchObject({ id: 'shop', name: 'The shop', maxSpansPerSecond: null });
    expect(cache.quotaOf('shop')).toBeUndefined();
    await admin('PUT', '/admin/projects/shop', { maxSpansPerSecond: 7 });
    expect(cache.quotaOf('shop')).toBe(7); // reloaded by the change itself
    expect(
      (await admin<{ project: Record<string, unknown> }>('GET', '/admin/projects/shop')).body.project,
    ).toMatchObject({ name: 'The shop', maxSpansPerSecond: 7 });
    expect((await admin<ErrorBody>('GET', '/admin/projects/ghost')).status).toBe(404);
    expect((await admin<ErrorBody>('PUT', '/admin/projects/ghost', { name: 'x' })).status).toBe(404);
    const list = await admin<{ projects: Array<{ id: string }> }>('GET', '/admin/projects');
    expect(list.body.projects.map((p) => p.id)).toEqual(['seed', 'shop']);
  });

  it('answers 400 naming the field for bad input, and 404 for unknown admin paths', async () => {
    const cases: Array<[string, string, unknown, RegExp]> = [
      ['POST', '/admin/projects', { id: 'Not A Slug' }, /request body id/],
      ['POST', '/admin/projects', { id: 'ok', maxSpansPerSecond: 0 }, /request body maxSpansPerSecond/],
      ['POST', '/admin/projects', { id: 'ok', extra: 1 }, /request body/],
      ['PUT', '/admin/projects/shop', { maxSpansPerSecond: 'lots' }, /request body maxSpansPerSecond/],
      ['POST', '/admin/projects/shop/keys', { kind: 'admin' }, /request body kind/],
      ['POST', '/admin/keys/not-a-key-id!/revoke', undefined, /path parameter keyId/],
    ];
    for (const [method, path, body, message] of cases) {
      const res = await admin<ErrorBody>(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(res.body.error.code).toBe('BAD_REQUEST');
      expect(res.body.error.message).toMatch(message);
    }
    const unknown = await admin<ErrorBody>('GET', '/admin/nothing');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toMatch(/no API route GET \/admin\/nothing/);
  });

  it('creates a key, answers its secret once, lists it without the secret; it works at once and stops at once when revoked', async () => {
    const created = await admin<{ key: KeyView; secret: string }>('POST', '/admin/projects/shop/keys', {
      kind: 'read',
      name: 'ci',
    });
    expect(created.status).toBe(201);
    const { key, secret } = created.body;
    expect(secret).toMatch(/^tt_read_[0-9A-Za-z]{16}_[0-9A-Za-z]{43}$/);
    expect(key).toMatchObject({
      projectId: 'shop',
      kind: 'read',
      name: 'ci',
      revokedAtMs: null,
      prefix: `tt_read_${key.keyId}_`,
    });
    expect(secret.startsWith(key.prefix)).toBe(true);

    const listed = await admin<{ keys: KeyView[] }>('GET', '/admin/projects/shop/keys');
    expect(listed.body.keys.map((k) => [k.keyId, k.kind, k.name])).toEqual([[key.keyId, 'read', 'ci']]);
    const rawSecret = secret.split('_')[3]!;
    expect(JSON.stringify(listed.body)).not.toContain(rawSecret);
    expect(JSON.stringify(listed.body)).not.toContain(createHash('sha256').update(rawSecret).digest('hex'));

    // the routes reloaded the key cache: no wait for the (10-minute) refresh
    const loadsBefore = cache.loads;
    expect((await call(urls.keys, 'GET', '/runs', { key: secret })).status).toBe(200);
    expect(cache.loads).toBe(loadsBefore);
    const revoked = await admin<{ key: KeyView }>('POST', `/admin/keys/${key.keyId}/revoke`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.key.revokedAtMs).toBeGreaterThanOrEqual(key.createdAtMs);
    const refused = await call<ErrorBody>(urls.keys, 'GET', '/runs', { key: secret });
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toBe(`API key ${key.keyId} has been revoked`);
    // revoking twice keeps the first time
    expect((await admin<{ key: KeyView }>('POST', `/admin/keys/${key.keyId}/revoke`)).body.key.revokedAtMs).toBe(
      revoked.body.key.revokedAtMs,
    );
    expect((await admin<{ keys: KeyView[] }>('GET', '/admin/projects/shop/keys')).body.keys[0]!.revokedAtMs).toBe(
      revoked.body.key.revokedAtMs,
    );

    expect((await admin<ErrorBody>('POST', '/admin/projects/ghost/keys', { kind: 'ingest' })).status).toBe(404);
    expect((await admin<ErrorBody>('GET', '/admin/projects/ghost/keys')).status).toBe(404);
    expect((await admin<ErrorBody>('POST', '/admin/keys/AAAAAAAAAAAAAAAA/revoke')).status).toBe(404);
  });

  it('deletes a run with its spans and facts for the admin key, and answers 404 for a run the project lacks', async () => {
    const at = BigInt(Date.now()) * 1_000_000n;
    await store.insertSpans(
      ['1', '2'].map((n) =>
        makeSpan({
          projectId: 'seed',
          runId: 'run-to-delete',
          spanId: n.repeat(16),
          stepKind: n === '1' ? 'run' : 'tool',
          startTimeUnixNano: at,
        }),
      ),
    );
    const refused = await call<ErrorBody>(urls.keys, 'DELETE', '/admin/projects/seed/runs/run-to-delete', {
      key: projectKeys.read,
    });
    expect(refused.status).toBe(403);
    const deleted = await admin<{ deleted: { runId: string; spans: number; contentSpans: number } }>(
      'DELETE',
      '/admin/projects/seed/runs/run-to-delete',
    );
    expect(deleted).toEqual({ status: 200, body: { deleted: { runId: 'run-to-delete', spans: 2, contentSpans: 0 } } });
    const run = await call<ErrorBody>(urls.keys, 'GET', '/runs/run-to-delete', { key: projectKeys.read });
    expect(run.status).toBe(404);
    const again = await admin<ErrorBody>('DELETE', '/admin/projects/seed/runs/run-to-delete');
    expect(again.status).toBe(404);
    expect(again.body.error.message).toBe('project seed has no run run-to-delete');
  });

  it('is open in open mode, like every route there', async () => {
    const created = await call<{ project: { id: string } }>(urls.open, 'POST', '/admin/projects', {
      body: { id: 'local' },
    });
    expect(created.status).toBe(201);
    const key = await call<{ secret: string }>(urls.open, 'POST', '/admin/projects/local/keys', {
      body: { kind: 'ingest' },
    });
    expect(key.status).toBe(201);
    expect(key.body.secret).toMatch(/^tt_ingest_/);
    const listed = await call<{ projects: unknown[]; auth: string }>(urls.open, 'GET', '/admin/projects');
    expect(listed.body.projects).toHaveLength(3);
    // the dashboard says what projects and keys do in open mode
    expect(listed.body.auth).toBe('none');
    expect((await admin<{ auth: string }>('GET', '/admin/projects')).body.auth).toBe('keys');
  });

  it('documents the admin routes in the OpenAPI document with the admin key scheme', async () => {
    const doc = (
      await call<{
        paths: Record<string, Record<string, { security?: unknown }>>;
        components: { securitySchemes: Record<string, unknown> };
      }>(urls.open, 'GET', '/openapi.json')
    ).body;
    for (const [path, method] of [
      ['/admin/projects', 'get'],
      ['/admin/projects', 'post'],
      ['/admin/projects/{projectId}', 'put'],
      ['/admin/projects/{projectId}/keys', 'get'],
      ['/admin/projects/{projectId}/keys', 'post'],
      ['/admin/keys/{keyId}/revoke', 'post'],
      ['/admin/projects/{projectId}/runs/{runId}', 'delete'],
    ] as const) {
      expect(doc.paths[path]?.[method]?.security, `${method} ${path}`).toEqual([{ adminKey: [] }, {}]);
    }
    expect(doc.components.securitySchemes).toHaveProperty('adminKey');
  });
});
