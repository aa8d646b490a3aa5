import type { ClickHouseClient } from '@clickhouse/client';
import { describe, expect, it } from 'vitest';
import { migrate } from '../migrate.js';
import { MIGRATIONS } from './index.js';
import { migratedStoreBefore } from './migratedStore.fixture.js';

async function rows<T>(client: ClickHouseClient, query: string): Promise<T[]> {
  return (await client.query({ query, format: 'JSONEachRow' })).json<T>();
}

describe('migration 0018: wider merges of spans', () => {
  const store = migratedStoreBefore(18, 'telltale-wider-merges-');
  /** The merge selector's base `spans` merges with, as the engine reads it from the table's settings. */
  const selectorBase = async (): Promise<string | undefined> => {
    const [row] = await rows<{ q: string }>(
      store.client,
      `SELECT create_table_query AS q FROM system.tables WHERE database = currentDatabase() AND name = 'spans'`,
    );
    return /merge_selector_base = (\d+)/.exec(row?.q ?? '')?.[1];
  };

  it('raises the merge selector base of spans from 10 to 20 and keeps the spans stored before', async () => {
    await store.client.command({
      query: `INSERT INTO spans (project_id, trace_id, span_id, run_id, start_time, end_time, name)
        SELECT 'p', 't', toString(number), 'r', toDateTime64('2026-11-29 10:00:00', 9, 'UTC'),
          toDateTime64('2026-11-29 10:00:01', 9, 'UTC'), 'step'
        FROM numbers(100)`,
    });
    expect(await selectorBase()).toBe('10');
    expect(await migrate(store.client, MIGRATIONS)).toEqual([18]);
    expect(await selectorBase()).toBe('20');
    const [count] = await rows<{ n: string }>(store.client, 'SELECT count() AS n FROM spans');
    expect(Number(count?.n)).toBe(100);
  });
});
