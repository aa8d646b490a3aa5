import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClickHouseClient } from '@clickhouse/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClickHouseClient } from '../client.js';
import { encodeContentRecordBatch } from '../content/arrow/encodeContentRecordBatch.js';
import { insertSpanContentBatches } from '../content/spanContent.js';
import { readStoredHalf } from '../content/storedHalf.js';
import { migrate } from '../migrate.js';
import { makeContentRecord } from '../testing/makeContentRecord.js';
import { m0014SpanContentSmallGranules } from './0014_span_content_small_granules.js';
import { MIGRATIONS } from './index.js';

async function rows<T>(client: ClickHouseClient, query: string): Promise<T[]> {
  return (await client.query({ query, format: 'JSONEachRow' })).json<T>();
}

describe('migration 0014: span content in granules of at most 1 MiB', () => {
  let dir: string;
  let client: ClickHouseClient;
  const insert = (spanId: string, text: string): Promise<void> =>
    insertSpanContentBatches(client, { kind: 'file', dir }, [
      encodeContentRecordBatch([makeContentRecord(spanId, text, { traceId: 'c'.repeat(32) })]),
    ]);
  const stored = async (): Promise<unknown[]> =>
    (
      await rows<{ span_id: string; input: string }>(
        client,
        `SELECT span_id, input FROM span_content FINAL ORDER BY span_id`,
      )
    ).map((r) => [r.span_id, readStoredHalf(r.input)]);
  const tables = async (): Promise<string[]> =>
    (
      await rows<{ name: string }>(
        client,
        `SELECT name FROM system.tables WHERE database = currentDatabase() AND startsWith(name, 'span_content')
         ORDER BY name`,
      )
    ).map((r) => r.name);

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-content-granules-'));
    client = createClickHouseClient({ kind: 'embedded', dataDir: dir });
    await migrate(
      client,
      MIGRATIONS.filter((m) => m.version < 14),
    );
    await insert('1'.repeat(16), 'before');
  }, 120_000);

  afterEach(async () => {
    await client?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('makes the table again with 1 MiB granules, keeping its rows, codecs, key, TTL and settings', async () => {
    const createQuery = async (): Promise<string> =>
      (
        await rows<{ q: string }>(
          client,
          `SELECT create_table_query AS q FROM system.tables WHERE database = currentDatabase() AND name = 'span_content'`,
        )
      )[0]?.q ?? '';
    expect(await createQuery()).not.toMatch(/index_granularity_bytes/);

    expect(
      await migrate(
        client,
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
    await client.command({ query: create! });
    await client.command({ query: exchange! });
    // the process writes on, into the new table, then dies before the migration is recorded
    await insert('3'.repeat(16), 'meanwhile');

    expect(
      await migrate(
        client,
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
