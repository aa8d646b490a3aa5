import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClickHouseClient } from '@clickhouse/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClickHouseClient } from '../client.js';
import { encodeContentRecordBatch } from '../content/arrow/encodeContentRecordBatch.js';
import { insertSpanContentBatches } from '../content/spanContent.js';
import { readStoredHalf } from '../content/storedHalf.js';
import { migrate } from '../migrate.js';
import { makeContentRecord } from '../testing/makeContentRecord.js';
import { MIGRATIONS } from './index.js';

async function rows<T>(client: ClickHouseClient, query: string): Promise<T[]> {
  return (await client.query({ query, format: 'JSONEachRow' })).json<T>();
}

describe('migration 0012: cheaper span content writes', () => {
  let dir: string;
  let client: ClickHouseClient;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-content-migration-'));
    client = createClickHouseClient({ kind: 'embedded', dataDir: dir });
    await migrate(
      client,
      MIGRATIONS.filter((m) => m.version < 12),
    );
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps ZSTD (level 1), merges wider, and keeps the content written before it', async () => {
    const transport = { kind: 'file' as const, dir };
    await insertSpanContentBatches(client, transport, [
      encodeContentRecordBatch([makeContentRecord('1'.repeat(16), 'before')]),
    ]);
    const codecs = (): Promise<{ name: string; compression_codec: string }[]> =>
      rows(
        client,
        `SELECT name, compression_codec FROM system.columns
         WHERE database = currentDatabase() AND table = 'span_content' AND name IN ('input', 'output') ORDER BY name`,
      );
    expect(await codecs()).toEqual([
      { name: 'input', compression_codec: 'CODEC(ZSTD(3))' },
      { name: 'output', compression_codec: 'CODEC(ZSTD(3))' },
    ]);

    expect(
      await migrate(
        client,
        MIGRATIONS.filter((m) => m.version <= 12),
      ),
    ).toEqual([12]);

    expect(await codecs()).toEqual([
      { name: 'input', compression_codec: 'CODEC(ZSTD(1))' },
      { name: 'output', compression_codec: 'CODEC(ZSTD(1))' },
    ]);
    const [table] = await rows<{ create_table_query: string }>(
      client,
      `SELECT create_table_query FROM system.tables WHERE database = currentDatabase() AND name = 'span_content'`,
    );
    // the key, the daily parts and their TTL are as before
    expect(table?.create_table_query).toMatch(/ORDER BY \(project_id, trace_id, span_id\)/);
    expect(table?.create_table_query).toMatch(/TTL toDateTime\(start_time\) \+ toIntervalDay\(7\)/);
    expect(table?.create_table_query).toMatch(/ttl_only_drop_parts = 1/);
    expect(table?.create_table_query).toMatch(/merge_selector_base = 20/);
    // a codec change rewrites nothing
    expect(await rows(client, `SELECT * FROM system.mutations WHERE table = 'span_content'`)).toEqual([]);

    await insertSpanContentBatches(client, transport, [
      encodeContentRecordBatch([makeContentRecord('2'.repeat(16), 'after')]),
    ]);
    const stored = await rows<{ span_id: string; input: string; output: string }>(
      client,
      `SELECT span_id, input, output FROM span_content FINAL ORDER BY span_id`,
    );
    expect(stored.map((r) => [r.span_id, readStoredHalf(r.input), readStoredHalf(r.output)])).toEqual([
      ['1'.repeat(16), { messages: [{ role: 'user', content: 'before' }] }, { text: 'answer to before' }],
      ['2'.repeat(16), { messages: [{ role: 'user', content: 'after' }] }, { text: 'answer to after' }],
    ]);
  });
});
