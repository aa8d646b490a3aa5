import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClickHouseClient } from '@clickhouse/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClickHouseClient } from '../client.js';
import { migrate } from '../migrate.js';
import { insertSpansJson } from '../spans/insertSpansJson.js';
import { makeSpan } from '../testing/makeSpan.js';
import { MIGRATIONS } from './index.js';

const T0 = 1_800_000_000_000_000_000n;
const MS = 1_000_000n;

const spansOf = (prefix: string, n: number): ReturnType<typeof makeSpan>[] =>
  Array.from({ length: n }, (_, i) =>
    makeSpan({
      runId: `${prefix}-run`,
      spanId: `${prefix}${i.toString(16).padStart(15, '0')}`,
      stepKind: i === 0 ? 'run' : 'tool',
      stepName: i === 0 ? '' : 'search',
      toolName: i === 0 ? '' : 'search',
      isRunRoot: i === 0,
      startTimeUnixNano: T0 + BigInt(i) * 1_000n * MS,
      endTimeUnixNano: T0 + BigInt(i) * 1_000n * MS + BigInt(i + 1) * MS,
    }),
  );

async function rollup(client: ClickHouseClient): Promise<{ spans: number; max: number }> {
  const result = await client.query({
    query: 'SELECT sum(spans) AS spans, max(dur_max) AS max FROM span_rollup_1m',
    format: 'JSONEachRow',
  });
  const [row] = await result.json<{ spans: string; max: string }>();
  return { spans: Number(row?.spans), max: Number(row?.max) };
}

describe('migration 0011: span rollups', () => {
  let dir: string;
  let client: ClickHouseClient;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'telltale-rollup-migration-'));
    client = createClickHouseClient({ kind: 'embedded', dataDir: dir });
    await migrate(
      client,
      MIGRATIONS.filter((m) => m.version < 11),
    );
  });

  afterAll(async () => {
    await client?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('backfills the spans stored before it, then the view keeps the rollup current', async () => {
    await insertSpansJson(client, spansOf('a', 50)); // 1 root (not rolled up) + 49 tool steps
    expect(
      await migrate(
        client,
        MIGRATIONS.filter((m) => m.version <= 11),
      ),
    ).toEqual([11]);
    expect(await rollup(client)).toEqual({ spans: 49, max: 50 * 1_000_000 });
    await insertSpansJson(client, spansOf('b', 101));
    expect(await rollup(client)).toEqual({ spans: 149, max: 101 * 1_000_000 });
  });
});
