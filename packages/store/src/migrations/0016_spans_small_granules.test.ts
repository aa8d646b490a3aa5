import type { ClickHouseClient } from '@clickhouse/client';
import { beforeEach, describe, expect, it } from 'vitest';
import { migrate } from '../migrate.js';
import { SPAN_ROLLUP_TABLE } from './0011_span_rollups.js';
import { m0016SpansSmallGranules } from './0016_spans_small_granules.js';
import { MIGRATIONS } from './index.js';
import { migratedStoreBefore } from './migratedStore.fixture.js';

async function rows<T>(client: ClickHouseClient, query: string): Promise<T[]> {
  return (await client.query({ query, format: 'JSONEachRow' })).json<T>();
}

/** `n` llm spans of run `run` (its own trace), one per span id, with a few hundred bytes of attributes each. */
function insertSpans(client: ClickHouseClient, run: string, n: number): Promise<unknown> {
  return client.command({
    query: `INSERT INTO spans (project_id, trace_id, span_id, run_id, start_time, end_time, name, step_kind, attributes)
      SELECT 'p', 't-${run}', '${run}-' || toString(number), '${run}', toDateTime64('2026-11-28 10:00:00', 9, 'UTC'),
        toDateTime64('2026-11-28 10:00:01', 9, 'UTC'), 'llm', 'llm', map('gen_ai.request.model', repeat('m', 400))
      FROM numbers(${n})`,
  });
}

describe('migration 0016: spans in granules of at most 2 MiB', () => {
  const store = migratedStoreBefore(16, 'telltale-spans-granules-');
  const createQuery = async (): Promise<string> =>
    (
      await rows<{ q: string }>(
        store.client,
        `SELECT create_table_query AS q FROM system.tables WHERE database = currentDatabase() AND name = 'spans'`,
      )
    )[0]?.q ?? '';
  const tables = async (): Promise<string[]> =>
    (
      await rows<{ name: string }>(
        store.client,
        `SELECT name FROM system.tables WHERE database = currentDatabase() AND startsWith(name, 'spans') ORDER BY name`,
      )
    ).map((r) => r.name);
  /** Spans per run, in `spans` and in what the views on it wrote (the rollups and the trace links). */
  const counts = async (): Promise<{ spans: unknown[]; rollups: number; traceRuns: number }> => ({
    spans: (
      await rows<{ run_id: string; n: string }>(
        store.client,
        `SELECT run_id, count() AS n FROM spans GROUP BY run_id ORDER BY run_id`,
      )
    ).map((r) => [r.run_id, Number(r.n)]),
    rollups: Number(
      (await rows<{ n: string }>(store.client, `SELECT sum(spans) AS n FROM ${SPAN_ROLLUP_TABLE}`))[0]?.n,
    ),
    traceRuns: Number((await rows<{ n: string }>(store.client, `SELECT count() AS n FROM trace_runs FINAL`))[0]?.n),
  });
  const granuleRows = async (): Promise<{ rows: number; marks: number }[]> =>
    (
      await rows<{ rows: string; marks: string }>(
        store.client,
        `SELECT rows, marks FROM system.parts WHERE database = currentDatabase() AND table = 'spans' AND active ORDER BY min_block_number`,
      )
    ).map((r) => ({ rows: Number(r.rows), marks: Number(r.marks) }));

  beforeEach(async () => {
    // 20k spans of ~0.5 KB (10 MB): granules of 8,192 rows before, of 2 MiB after
    await insertSpans(store.client, 'before', 20_000);
  }, 120_000);

  it('makes the table again with 2 MiB granules, keeping its rows, structure, settings and views', async () => {
    const before = await createQuery();
    expect(before).not.toMatch(/index_granularity_bytes/);
    // 8,192 rows per granule
    const [coarse] = await granuleRows();
    expect(coarse).toEqual({ rows: 20_000, marks: 3 });

    expect(
      await migrate(
        store.client,
        MIGRATIONS.filter((m) => m.version <= 16),
      ),
    ).toEqual([16]);

    const after = await createQuery();
    expect(after).toMatch(/index_granularity_bytes = 2097152/);
    // the same columns (materialized ones too), indexes and projection; the same key, partitions and settings
    const structure = (q: string): string => q.replace(/ ENGINE = [\s\S]*$/, '');
    expect(structure(after)).toBe(structure(before));
    expect(after).toMatch(/PROJECTION run_span_counts/);
    expect(after).toMatch(/ORDER BY \(project_id, toStartOfHour\(start_time\), run_id, span_id\)/);
    expect(after).toMatch(/min_bytes_for_wide_part = 134217728, merge_selector_base = 10/);
    expect(after).toMatch(/deduplicate_merge_projection_mode = 'rebuild'/);
    expect(await tables()).toEqual(['spans']);
    // the old part kept as it was (attached, not rewritten), the rows once each, the views' output as it was
    expect(await granuleRows()).toEqual([coarse]);
    expect(await counts()).toEqual({ spans: [['before', 20_000]], rollups: 20_000, traceRuns: 1 });

    // new inserts: finer granules, and the views on spans fire for them (no merge joins the two parts meanwhile)
    await store.client.command({ query: 'SYSTEM STOP MERGES spans' });
    await insertSpans(store.client, 'after', 20_000);
    expect(await counts()).toEqual({
      spans: [
        ['after', 20_000],
        ['before', 20_000],
      ],
      rollups: 40_000,
      traceRuns: 2,
    });
    const [, fine] = await granuleRows();
    expect(fine?.rows).toBe(20_000);
    expect(fine?.marks).toBeGreaterThan(coarse!.marks + 1);
  });

  it('loses nothing when killed after the swap and redone: rows written meanwhile stay', async () => {
    const [create, exchange] = m0016SpansSmallGranules.statements;
    await store.client.command({ query: create! });
    await store.client.command({ query: exchange! });
    // the process writes on, into the new table, then dies before the migration is recorded
    await insertSpans(store.client, 'meanwhile', 100);

    expect(
      await migrate(
        store.client,
        MIGRATIONS.filter((m) => m.version <= 16),
      ),
    ).toEqual([16]);
    expect(await tables()).toEqual(['spans']);
    expect(await counts()).toEqual({
      spans: [
        ['before', 20_000],
        ['meanwhile', 100],
      ],
      rollups: 20_100,
      traceRuns: 2,
    });
  });
});
