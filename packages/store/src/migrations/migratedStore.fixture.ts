import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClickHouseClient } from '@clickhouse/client';
import { afterEach, beforeEach } from 'vitest';
import { createClickHouseClient } from '../client.js';
import { migrate } from '../migrate.js';
import { MIGRATIONS } from './index.js';

/** The store a migration's test runs on: set anew before each test. */
export interface MigratedStore {
  client: ClickHouseClient;
  dir: string;
}

/**
 * For a migration's tests: before each, a fresh embedded store in a
 * directory of its own, migrated up to `version` (not included); after
 * each, closed and removed. The test applies the migration itself.
 */
export function migratedStoreBefore(version: number, dirPrefix: string): MigratedStore {
  const store = {} as MigratedStore;
  beforeEach(async () => {
    store.dir = mkdtempSync(join(tmpdir(), dirPrefix));
    store.client = createClickHouseClient({ kind: 'embedded', dataDir: store.dir });
    await migrate(
      store.client,
      MIGRATIONS.filter((m) => m.version < version),
    );
  }, 120_000);
  afterEach(async () => {
    await store.client?.close();
    if (store.dir) rmSync(store.dir, { recursive: true, force: true });
  });
  return store;
}
