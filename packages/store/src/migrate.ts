import type { ClickHouseClient } from '@clickhouse/client';
import { MIGRATIONS } from './migrations/index.js';
import type { Migration } from './migrations/Migration.js';
import { clusterMigrations, clusterSchemaMigrationsDdl } from './cluster/clusterMigrations.js';

const SCHEMA_MIGRATIONS_DDL = `CREATE TABLE IF NOT EXISTS schema_migrations
      (version UInt32, name String, applied_at DateTime64(3, 'UTC') DEFAULT now64(3))
      ENGINE = MergeTree ORDER BY version`;

/**
 * Applies pending migrations in order; returns the versions applied now.
 * `onProgress` hears (done, total) when some are pending. With `cluster`,
 * the statements are their cluster form (clusterMigrations: ON CLUSTER,
 * Replicated engines, Distributed tables); without, they run as written.
 */
export async function migrate(
  client: ClickHouseClient,
  migrations: readonly Migration[] = MIGRATIONS,
  onProgress?: (done: number, total: number) => void,
  opts: { cluster?: string } = {},
): Promise<number[]> {
  const cluster = opts.cluster;
  await client.command({
    query: cluster === undefined ? SCHEMA_MIGRATIONS_DDL : clusterSchemaMigrationsDdl(cluster),
  });
  const steps = cluster === undefined ? migrations : clusterMigrations(migrations, cluster);
  const result = await client.query({ query: 'SELECT version FROM schema_migrations', format: 'JSONEachRow' });
  const done = new Set((await result.json<{ version: number }>()).map((r) => Number(r.version)));
  const applied: number[] = [];
  const todo = [...steps].sort((a, b) => a.version - b.version).filter((m) => !done.has(m.version));
  if (todo.length > 0) onProgress?.(0, todo.length);
  for (const m of todo) {
    for (const statement of m.statements) await client.command({ query: statement });
    await client.insert({
      table: 'schema_migrations',
      values: [{ version: m.version, name: m.name }],
      format: 'JSONEachRow',
    });
    applied.push(m.version);
    onProgress?.(applied.length, todo.length);
  }
  return applied;
}
