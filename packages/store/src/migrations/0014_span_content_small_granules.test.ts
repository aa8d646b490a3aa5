import type { ClickHouseClient } from '@clickhouse/client';
import { beforeEach, describe, expect, it } from 'vitest';
import { encodeContentRecordBatch } from '../content/arrow/encodeContentRecordBatch.js';
import { insertSpanContentBatches } from '../content/spanContent.js';
import { readStoredHalf } from '../content/storedHalf.js';
import { migrate } from '../migrate.js';
import { makeContentRecord } from '../testing/makeContentRecord.js';
import { m0014SpanContentSmallGranules } from './0014_span_content_small_granules.js';
import { MIGRATIONS } from './index.js';
import { migratedStoreBefore } from './migratedStore.fixture.js';

async function rows<T>(client: ClickHouseClient, query: string): Promise<T[]> {
  return (await client.query({ query, format: 'JSONEachRow' })).json<T>();
}

describe('migration 0014: span content in granules of at most 1 MiB', () => {
  const store = migratedStoreBefore(14, 'telltale-content-granules-');
  const insert = (spanId: string, text: string): Promise<void> =>
    insertSpanContentBatches(store.client, { kind: 'file', dir: store.dir }, [
      encodeContentRecordBatch([makeContentRecord(spanId, text, { traceId: 'c'.repeat(32) })]),
    ]);
  const stored = async (): Promise<unknown[]> =>
    (
      await rows<{ span_id: string; input: string }>(
        store.client,
        `SELECT span_id, input FROM span_content FINAL ORDER BY span_id`,
      )
    ).map((r) => [r.span_id, readStoredHalf(r.input)]);
  const tables = async (): Promise<string[]> =>
    (
      await rows<{ name: string }>(
        store.client,
        `SELECT name FROM system.tables WHERE database = currentDatabase() AND startsWith(name, 'span_content')
         ORDER BY name`,
      )
    ).map((r) => r.name);

  beforeEach(async () => {
    await insert('1'.repeat(16), 'before');
  }, 120_000);

  it('makes the table again with 1 MiB granules, keeping its rows, codecs, key, TTL and settings', async () => {
    const createQuery = async (): Promise<string> =>
      (
        await rows<{ q: string }>(
          store.client,
          `SELECT create_table_query AS q FROM system.tables WHERE database = currentDatabase() AND name = 'span_content'`,
        )
      )[0]?.q ?? '';
    expect(await createQuery()).not.toMatch(/index_granularity_bytes/);

    expect(
      await migrate(
        store.client,
        MIGRATIONS.filter((m) => m.version <= 14),
      ),
    ).toEqual([14]);

    const q = await createQuery();
    expect(q).toMatch(/index_granularity_bytes = 1048576/);
    expect(q).toMatch(/`input` String CODEC\(ZSTD\(1\)\), `output` String CODEC\(ZSTD\(1\)\)/);
    expect(q).toMatch(/ORDER BY \(project_id, trace_id, span_id\)/);
    expect(q).toMatch(/PARTITION BY toDate\(start_time\)/);
    expect(q).toMatch(/TTL toDateTime\(start_time\) \+ toIntervalDay\(7\)/);
    expect(q).toMatch(
      /ttl_only_drop_parts = 1, non_replicated_deduplication_window = 1000, .*merge_selector_base = 20/,
    );
    expect(await tables()).toEqual(['span_content']);

    await insert('2'.repeat(16), 'after');
    expect(await stored()).toEqual([
      ['1'.repeat(16), { messages: [{ role: 'user', content: 'before' }] }],
      ['2'.repeat(16), { messages: [{ role: 'user', content: 'after' }] }],
    ]);
  });

  it('loses nothing when killed after the swap and redone: rows written meanwhile stay', async () => {
    const [create, exchange] = m0014SpanContentSmallGranules.statements;
    await store.client.command({ query: create! });
    await store.client.command({ query: exchange! });
    // the process writes on, into the new table, then dies before the migration is recorded
    await insert('3'.repeat(16), 'meanwhile');

    expect(
      await migrate(
        store.client,
        MIGRATIONS.filter((m) => m.version <= 14),
      ),
    ).toEqual([14]);
    expect(await tables()).toEqual(['span_content']);
    expect(await stored()).toEqual([
      ['1'.repeat(16), { messages: [{ role: 'user', content: 'before' }] }],
      ['3'.repeat(16), { messages: [{ role: 'user', content: 'meanwhile' }] }],
    ]);
  });
});
