import type { ClickHouseClient } from '@clickhouse/client';
import { beforeEach, describe, expect, it } from 'vitest';
import { RUNS_TIME_SQL, STALE_RUNS_SQL } from '../facts/finaliseSql.js';
import { STORED_SQL } from '../facts/incremental/finaliseKept.js';
import { migrate } from '../migrate.js';
import { MIGRATIONS } from './index.js';
import { migratedStoreBefore } from './migratedStore.fixture.js';

const ASKED = { projectId: 'p', runIds: ['r1', 'r2', 'r3', 'nowhere'] };
const NO_PROJECTIONS = '\nSETTINGS optimize_use_projections = 0';

async function rows<T>(client: ClickHouseClient, query: string, params: Record<string, unknown> = {}): Promise<T[]> {
  return (await client.query({ query, query_params: params, format: 'JSONEachRow' })).json<T>();
}

/** The same `n` spans of project p over runs r0…r6 on every call: a second call duplicates the first. */
function insertSpans(client: ClickHouseClient, n: number): Promise<unknown> {
  return client.command({
    query: `INSERT INTO spans (project_id, trace_id, span_id, run_id, start_time, end_time, name)
      SELECT 'p', 't', toString(number % 50), 'r' || toString(number % 7), toDateTime64('2026-11-28 10:00:00', 9, 'UTC'),
        toDateTime64('2026-11-28 10:00:01', 9, 'UTC'), 'step'
      FROM numbers(${n})`,
  });
}

/** The span counts per run asked, with the projection and read from the rows, sorted. */
async function countsBothWays(client: ClickHouseClient): Promise<[unknown[], unknown[]]> {
  const sorted = (r: Array<{ run_id: string; spans: string }>): unknown[] =>
    r.map((x) => [x.run_id, Number(x.spans)]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
  return [
    sorted(await rows(client, STORED_SQL, ASKED)),
    sorted(await rows(client, STORED_SQL + NO_PROJECTIONS, ASKED)),
  ];
}

async function readsProjection(client: ClickHouseClient, query: string, params = {}): Promise<boolean> {
  const plan = await rows<{ explain: string }>(client, `EXPLAIN projections = 1 ${query}`, params);
  return plan.some((r) => r.explain.includes('ReadFromMergeTree (run_span_counts)'));
}

describe('migration 0015: span counts per run kept by each part of spans', () => {
  const store = migratedStoreBefore(15, 'telltale-run-counts-');

  beforeEach(async () => {
    await insertSpans(store.client, 100);
  }, 120_000);

  it('gives the parts written before the projection, and the count queries read it', async () => {
    expect(await readsProjection(store.client, STORED_SQL, ASKED)).toBe(false);
    expect(
      await migrate(
        store.client,
        MIGRATIONS.filter((m) => m.version <= 15),
      ),
    ).toEqual([15]);

    // the part written before gets its projection from a background mutation
    const deadline = Date.now() + 30_000;
    const unprojected = (): Promise<Array<{ name: string }>> =>
      rows(
        store.client,
        `SELECT name FROM system.parts WHERE database = currentDatabase() AND table = 'spans' AND active
           AND name NOT IN (SELECT parent_name FROM system.projection_parts
                            WHERE database = currentDatabase() AND table = 'spans' AND active)`,
      );
    while ((await unprojected()).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await unprojected()).toEqual([]);

    await insertSpans(store.client, 100);
    expect(await readsProjection(store.client, STORED_SQL, ASKED)).toBe(true);
    expect(await readsProjection(store.client, STALE_RUNS_SQL)).toBe(true);
    expect(await readsProjection(store.client, RUNS_TIME_SQL, ASKED)).toBe(true);
    const [projected, fromRows] = await countsBothWays(store.client);
    expect(projected).toEqual(fromRows);
    // every span inserted twice, not yet merged: counted as the rows are
    expect(projected).toEqual([
      ['r1', 30],
      ['r2', 28],
      ['r3', 28],
    ]);
  });

  it('counts as the rows do after merges drop duplicates and after a lightweight delete', async () => {
    await migrate(
      store.client,
      MIGRATIONS.filter((m) => m.version <= 15),
    );
    await insertSpans(store.client, 100);
    await store.client.command({ query: 'OPTIMIZE TABLE spans FINAL' });
    let [projected, fromRows] = await countsBothWays(store.client);
    expect(projected).toEqual(fromRows);
    expect(projected).toEqual([
      ['r1', 15],
      ['r2', 14],
      ['r3', 14],
    ]);

    await store.client.command({
      query: `DELETE FROM spans WHERE project_id = 'p' AND run_id = 'r1' AND span_id = '1'`,
      clickhouse_settings: { mutations_sync: '2' },
    });
    [projected, fromRows] = await countsBothWays(store.client);
    expect(projected).toEqual(fromRows);
    expect(projected[0]).toEqual(['r1', 14]);
    expect(await readsProjection(store.client, STORED_SQL, ASKED)).toBe(true);
  });
});
