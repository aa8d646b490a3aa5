import type { ClickHouseClient } from '@clickhouse/client';
import { MIGRATIONS } from './migrations/index.js';
import type { Migration } from './migrations/Migration.js';

/** Applies pending migrations in order; returns the versions applied now. */
export async function migrate(client: ClickHouseClient, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  await client.command({
    query: `CREATE TABLE IF NOT EXISTS schema_migrations
      (version UInt32, name String, applied_at DateTime64(3, 'UTC') DEFAULT now64(3))
      ENGINE = MergeTree ORDER BY version`,
  });
  const result = await client.query({ query: 'SELECT version FROM schema_migrations', format: 'JSONEachRow' });
  const done = new Set((await result.json<{ version: number }>()).map((r) => Number(r.version)));
  const applied: number[] = [];
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    if (done.has(m.version)) continue;
    for (const statement of m.statements) await client.command({ query: statement });
    await client.insert({ table: 'schema_migrations', values: [{ version: m.version, name: m.name }], format: 'JSONEachRow' });
    applied.push(m.version);
  }
  return applied;
}
