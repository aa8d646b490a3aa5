import { TupleParam, type ClickHouseClient } from '@clickhouse/client';
import { describe, expect, it } from 'vitest';
import { RUNS_INGESTED_SINCE_SQL, STALE_RUNS_OF_SQL, STALE_RUNS_SQL } from '../facts/finaliseSql.js';
import { migrate } from '../migrate.js';
import { INGESTED_AT_INDEX } from './0017_spans_ingested_index.js';
import { MIGRATIONS } from './index.js';
import { migratedStoreBefore } from './migratedStore.fixture.js';

async function rows<T>(client: ClickHouseClient, query: string, params: Record<string, unknown> = {}): Promise<T[]> {
  return (await client.query({ query, query_params: params, format: 'JSONEachRow' })).json<T>();
}

/** `n` spans of run `run` in one insert (one part), ingested now. */
function insertSpans(client: ClickHouseClient, run: string, n: number): Promise<unknown> {
  return client.command({
    query: `INSERT INTO spans (project_id, trace_id, span_id, run_id, start_time, end_time, name)
      SELECT 'p', 't-${run}', toString(number), '${run}', toDateTime64('2026-11-28 10:00:00', 9, 'UTC'),
        toDateTime64('2026-11-28 10:00:01', 9, 'UTC'), 'step'
      FROM numbers(${n})`,
  });
}

async function storageNowMs(client: ClickHouseClient): Promise<number> {
  const [row] = await rows<{ now: string }>(client, 'SELECT toString(toUnixTimestamp64Milli(now64(3))) AS now');
  return Number(row?.now);
}

/** The granules of spans RUNS_INGESTED_SINCE_SQL reads for `since`, of all there are. */
async function granulesRead(client: ClickHouseClient, since: number): Promise<{ read: number; of: number }> {
  const plan = await rows<{ explain: string }>(client, `EXPLAIN indexes = 1 ${RUNS_INGESTED_SINCE_SQL}`, { since });
  const lines = plan.map((r) => r.explain.trim());
  // "Parts: 1 | Granules: 1" heads the read; each index's lines go "Granules: left/before"
  const read = lines.map((l) => /^Parts: \d+ \| Granules: (\d+)$/.exec(l)?.[1]).find((g) => g !== undefined);
  const of = lines.map((l) => /^Granules: \d+\/(\d+)$/.exec(l)?.[1]).find((g) => g !== undefined);
  expect(lines, 'the plan names the index').toContain(`Name: ${INGESTED_AT_INDEX}`);
  return { read: Number(read), of: Number(of) };
}

describe('migration 0017: the ingest time of each granule of spans', () => {
  const store = migratedStoreBefore(17, 'telltale-ingested-index-');

  it('gives the parts written before the index, and a read by ingest time skips the granules ingested earlier', async () => {
    // about 30 granules of 8,192 rows, written before the index existed
    await insertSpans(store.client, 'old', 250_000);
    expect(
      await migrate(
        store.client,
        MIGRATIONS.filter((m) => m.version <= 17),
      ),
    ).toEqual([17]);

    // the part written before gets its index from a background mutation
    const unindexed = (): Promise<Array<{ name: string }>> =>
      rows(
        store.client,
        `SELECT name FROM system.parts WHERE database = currentDatabase() AND table = 'spans' AND active
           AND secondary_indices_compressed_bytes = 0`,
      );
    const deadline = Date.now() + 30_000;
    while ((await unindexed()).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await unindexed()).toEqual([]);

    const since = (await storageNowMs(store.client)) + 1;
    await new Promise((r) => setTimeout(r, 5));
    await insertSpans(store.client, 'new', 100);
    // one part: its first granule holds the new run's spans (its ids sort first) and some old ones
    await store.client.command({ query: 'OPTIMIZE TABLE spans FINAL' });
    const granules = await granulesRead(store.client, since);
    expect(granules.of).toBeGreaterThan(20);
    expect(granules.read).toBe(1);

    // no facts yet: both runs are stale, and only the new one was ingested since
    const runIds = (r: Array<{ run_id: string }>): string[] => r.map((x) => x.run_id).sort();
    expect(runIds(await rows(store.client, STALE_RUNS_SQL))).toEqual(['new', 'old']);
    expect(runIds(await rows(store.client, RUNS_INGESTED_SINCE_SQL, { since }))).toEqual(['new']);
    const staleOf = (ids: string[]): Promise<Array<{ run_id: string }>> =>
      rows(store.client, STALE_RUNS_OF_SQL, { runs: ids.map((id) => new TupleParam(['p', id])) });
    expect(runIds(await staleOf(['new']))).toEqual(['new']);
    expect(runIds(await staleOf(['new', 'old', 'nowhere']))).toEqual(['new', 'old']);
  });
});
