import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '@telltale/store';
import { StoreInspector } from '@telltale/store/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './harness/runCli.js';

describe('telltale projects / keys CLI round trip (embedded data directory)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'telltale-cli-keys-'));
  const dir = ['--data-dir', dataDir];
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  let key = '';
  let keyId = '';
  let secret = '';

  it('creates and lists projects, refusing duplicates and bad ids', async () => {
    const created = await runCli([
      'projects',
      'create',
      'checkout',
      '--name',
      'Checkout agents',
      '--max-spans-per-second',
      '2000',
      ...dir,
    ]);
    expect(created).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('created project checkout (at most 2000 spans/s)') as unknown,
    });
    const again = await runCli(['projects', 'create', 'checkout', ...dir]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('telltale: project checkout exists already');
    const bad = await runCli(['projects', 'create', 'Not A Slug', ...dir]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('invalid project id');
    const badQuota = await runCli(['projects', 'create', 'other', '--max-spans-per-second', 'lots', ...dir]);
    expect(badQuota.code).toBe(2);
    expect(badQuota.stderr).toContain('invalid --max-spans-per-second');
    const list = await runCli(['projects', 'list', ...dir]);
    expect(list.stdout).toMatch(/checkout +Checkout agents +2000 +\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ/);
    const updated = await runCli(['projects', 'update', 'checkout', '--max-spans-per-second', 'none', ...dir]);
    expect(updated.stdout).toContain('updated project checkout: no ingest quota');
  });

  it('prints a new key once, alone on stdout, with how to use it on stderr', async () => {
    const created = await runCli([
      'keys',
      'create',
      '--project',
      'checkout',
      '--kind',
      'ingest',
      '--name',
      'ci',
      ...dir,
    ]);
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^tt_ingest_[0-9A-Za-z]{16}_[0-9A-Za-z]{43}\n$/);
    key = created.stdout.trim();
    [, , keyId = '', secret = ''] = key.split('_');
    expect(created.stderr).toContain(
      `Created ingest key ${keyId} for project checkout. This is the only time it is shown`,
    );
    expect(created.stderr).toContain('OTEL_EXPORTER_OTLP_HEADERS="Authorization=Bearer%20<key>"');
    expect(created.stderr).not.toContain(secret);
    const read = await runCli(['keys', 'create', '--project', 'checkout', '--kind', 'read', ...dir]);
    expect(read.stdout).toMatch(/^tt_read_/);
    expect(read.stderr).toContain('TELLTALE_API_KEY=<key> telltale report');

    const noProject = await runCli(['keys', 'create', '--project', 'ghost', '--kind', 'read', ...dir]);
    expect(noProject.code).toBe(1);
    expect(noProject.stderr).toContain('telltale: no project ghost');
    const badKind = await runCli(['keys', 'create', '--project', 'checkout', '--kind', 'admin', ...dir]);
    expect(badKind.code).toBe(2);
    expect(badKind.stderr).toContain('invalid --kind');
  });

  it('lists keys without their secrets, as a table and as JSON', async () => {
    const table = await runCli(['keys', 'list', '--project', 'checkout', ...dir]);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(new RegExp(`${keyId} +ingest +ci +\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\dZ +—`));
    expect(table.stdout).toMatch(/ read /);
    const json = await runCli(['keys', 'list', '--project', 'checkout', '--json', ...dir]);
    const listed = JSON.parse(json.stdout) as Record<string, unknown>[];
    expect(listed.map((k) => Object.keys(k).sort())).toEqual([
      ['createdAtMs', 'keyId', 'kind', 'name', 'projectId'],
      ['createdAtMs', 'keyId', 'kind', 'name', 'projectId'],
    ]);
    const secretHash = createHash('sha256').update(secret).digest('hex');
    for (const output of [table.stdout, json.stdout]) {
      expect(output).not.toContain(secret);
      expect(output).not.toContain(secretHash);
    }
  });

  it('revokes by key id or by the whole key, once', async () => {
    const revoked = await runCli(['keys', 'revoke', keyId, ...dir]);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toMatch(new RegExp(`^revoked ingest key ${keyId} of project checkout at \\d{4}-`));
    const listed = await runCli(['keys', 'list', '--project', 'checkout', ...dir]);
    expect(listed.stdout).toMatch(
      new RegExp(`${keyId} +ingest +ci +\\S+ \\S+ +\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\dZ`),
    );
    const byKey = await runCli(['keys', 'revoke', key, ...dir]);
    expect(byKey.stdout).toBe(revoked.stdout);
    const unknown = await runCli(['keys', 'revoke', 'AAAAAAAAAAAAAAAA', ...dir]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('telltale: no key AAAAAAAAAAAAAAAA');
  });

  it('stores only the SHA-256 of the secret: no column holds the key or the secret', async () => {
    const store = await Store.open({ kind: 'embedded', dataDir }, { reconcile: false });
    try {
      const inspector = new StoreInspector(store);
      const rows = await inspector.apiKeyRows({ keyId, final: true });
      expect(rows).toHaveLength(1);
      expect(rows[0]!.secret_sha256).toBe(createHash('sha256').update(secret).digest('hex'));
      expect(rows[0]!.secret_sha256).not.toBe(key);
      const everything = JSON.stringify(await inspector.apiKeyRows());
      expect(everything).not.toContain(secret);
    } finally {
      await store.close();
    }
  });
});
