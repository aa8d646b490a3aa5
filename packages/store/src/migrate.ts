import type { ClickHouseClient } from '@clickhouse/client';
import { MIGRATIONS } from './migrations/index.js';
import type { Migration } from './migrations/Migration.js';

/** Applies pending migrations in order; returns the versions applied now. `onProgress` hears (done, total) when some are pending. */
export async function migrate(
  client: ClickHouseClient,
  migrations: readonly Migration[] = MIGRATIONS,
  onProgress?: (done: number, total: number) => void,
): Promise<number[]> {
  await client.command({
    query: `CREATE TABLE IF NOT EXISTS schema_migrations
      (version UInt32, name String, applied_at DateTime64(3, 'UTC') DEFAULT now64(3))
      ENGINE = MergeTree ORDER BY version`,
  });
  const result = await client.query({ query: 'SELECT version FROM schema_migrations', format: 'JSONEachRow' });
  const done = new Set((await result.json<{ version: number }>()).map((r) => Number(r.version)));
  const applied: number[] = [];
  const todo = [...migrations].sort((a, b) => a.version - b.version).filter((m) => !done.has(m.version));
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
