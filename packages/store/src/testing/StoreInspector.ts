import type { ClickHouseClient } from '@clickhouse/client';
import { storeRunner } from '../internal/storeRunners.js';
import type { QueryRunner } from '../QueryRunner.js';
import type { Store } from '../Store.js';
import { insertSpansJson } from '../spans/insertSpansJson.js';
import type { SpanRecord } from '../spans/SpanRecord.js';

/** The tables a test or bench may merge, size or empty. */
export const INSPECTED_TABLES = [
  'spans',
  'run_facts',
  'run_step_facts',
  'run_steps',
  'span_content',
  'span_rollup_1m',
] as const;
export type InspectedTable = (typeof INSPECTED_TABLES)[number];

/** The ClickHouse quantile functions the percentile tests compare with. */
export type QuantilesFunction = 'quantilesExact' | 'quantilesExactLow';

export interface TableSize {
  table: InspectedTable;
  rows: number;
  parts: number;
  bytesOnDisk: number;
}

export interface ColumnSize {
  column: string;
  compressedBytes: number;
  uncompressedBytes: number;
}

async function rowsOf<T>(client: ClickHouseClient, query: string, params: Record<string, unknown> = {}): Promise<T[]> {
  const result = await client.query({ query, format: 'JSONEachRow', query_params: params });
  return result.json<T>();
}

function checkTables(tables: readonly string[]): void {
  for (const t of tables)
    if (!(INSPECTED_TABLES as readonly string[]).includes(t)) throw new RangeError(`not an inspected table: ${t}`);
}

function levelList(levels: readonly number[]): string {
  for (const q of levels)
    if (!Number.isFinite(q) || q < 0 || q > 1) throw new RangeError(`a quantile level is in [0, 1], got ${q}`);
  return levels.map(String).join(', ');
}

/**
 * Named reads of what a store holds, for tests and benchmarks: counts,
 * sizes, raw rows of a table, and the few writes a test needs to set a
 * scene (drop the run facts, empty the spans, merge parts). Each runs as an
 * `inspect.*` operation, heard by the store's `onQuery` listener like the
 * repositories' operations. Not for the product: it ignores projects.
 */
export class StoreInspector {
  readonly #runner: QueryRunner;

  constructor(store: Store) {
    this.#runner = storeRunner(store);
  }

  /** Rows in `spans`, duplicates not yet merged included. */
  spanCount(): Promise<number> {
    return this.#runner.run('inspect.spanCount', async (client) => {
      const [row] = await rowsOf<{ n: string | number }>(client, 'SELECT count() AS n FROM spans');
      return Number(row?.n ?? 0);
    });
  }

  /** Rows, distinct (trace, span) pairs and distinct (project, run) pairs in `spans`, and the engine's version. */
  spanTotals(): Promise<{ rows: number; uniqueSpans: number; runs: number; version: string }> {
    return this.#runner.run('inspect.spanTotals', async (client) => {
      const [row] = await rowsOf<{ rows: string; unique: string; runs: string; version: string }>(
        client,
        'SELECT count() AS rows, uniqExact(span_id, trace_id) AS unique, uniqExact(project_id, run_id) AS runs, version() AS version FROM spans',
      );
      return {
        rows: Number(row?.rows ?? 0),
        uniqueSpans: Number(row?.unique ?? 0),
        runs: Number(row?.runs ?? 0),
        version: row?.version ?? 'unknown',
      };
    });
  }

  /** Rows of `span_content` per project (unmerged duplicates included), with the bytes of their text columns. */
  contentRows(): Promise<{ projectId: string; spanId: string; textBytes: number; truncated: boolean }[]> {
    return this.#runner.run('inspect.contentRows', async (client) => {
      const rows = await rowsOf<{ project_id: string; span_id: string; bytes: string; truncated: boolean | number }>(
        client,
        'SELECT project_id, span_id, length(input) + length(output) AS bytes, truncated FROM span_content ORDER BY project_id, trace_id, span_id',
      );
      return rows.map((r) => ({
        projectId: r.project_id,
        spanId: r.span_id,
        textBytes: Number(r.bytes),
        truncated: r.truncated === true || r.truncated === 1,
      }));
    });
  }

  /**
   * Totals of `span_content` (rows, distinct spans, bytes of the input and output columns, rows cut), and
   * how many span rows still hold a GenAI message attribute (content is moved out at ingest: 0).
   */
  contentTotals(): Promise<{
    rows: number;
    uniqueSpans: number;
    textBytes: number;
    truncated: number;
    spanRowsWithContent: number;
  }> {
    return this.#runner.run('inspect.contentTotals', async (client) => {
      const [c] = await rowsOf<{ rows: string; unique: string; bytes: string; truncated: string }>(
        client,
        `SELECT count() AS rows, uniqExact(trace_id, span_id) AS unique, sum(length(input) + length(output)) AS bytes,
                countIf(truncated) AS truncated FROM span_content`,
      );
      const [s] = await rowsOf<{ n: string }>(
        client,
        `SELECT countIf(mapContains(attributes, 'gen_ai.input.messages') OR mapContains(attributes, 'gen_ai.output.messages')) AS n
         FROM spans`,
      );
      return {
        rows: Number(c?.rows ?? 0),
        uniqueSpans: Number(c?.unique ?? 0),
        textBytes: Number(c?.bytes ?? 0),
        truncated: Number(c?.truncated ?? 0),
        spanRowsWithContent: Number(s?.n ?? 0),
      };
    });
  }

  /** One span's stored row as the table holds it: its attribute map, and the row's size in JSON text. */
  spanRow(spanId: string): Promise<{ attributes: Record<string, string>; rowBytes: number } | undefined> {
    return this.#runner.run('inspect.spanRow', async (client) => {
      const [row] = await rowsOf<{ attributes: Record<string, string>; row_bytes: string }>(
        client,
        `SELECT attributes, length(formatRow('JSONEachRow', * EXCEPT (ingested_at, span_id, start_time, end_time, duration_ns))) AS row_bytes
         FROM spans WHERE span_id = {spanId:String} LIMIT 1`,
        { spanId },
      );
      return row === undefined ? undefined : { attributes: row.attributes, rowBytes: Number(row.row_bytes) };
    });
  }

  /** Every stored span row but `ingested_at`, as JSON lines in (project, trace, span) order. */
  spanRowsText(): Promise<string> {
    return this.#runner.run('inspect.spanRowsText', async (client) => {
      const result = await client.query({
        query: 'SELECT * EXCEPT (ingested_at) FROM spans ORDER BY project_id, trace_id, span_id',
        format: 'JSONEachRow',
      });
      return result.text();
    });
  }

  /** Rows and distinct spans per run id (no FINAL: a duplicate that was inserted shows up). */
  runSpanCounts(): Promise<{ runId: string; rows: number; spans: number }[]> {
    return this.#runner.run('inspect.runSpanCounts', async (client) => {
      const rows = await rowsOf<{ run_id: string; rows: string; spans: string }>(
        client,
        'SELECT run_id, count() AS rows, uniqExact(span_id) AS spans FROM spans GROUP BY run_id',
      );
      return rows.map((r) => ({ runId: r.run_id, rows: Number(r.rows), spans: Number(r.spans) }));
    });
  }

  /** The (project, run) pairs `spans` holds. */
  storedRuns(): Promise<{ projectId: string; runId: string }[]> {
    return this.#runner.run('inspect.storedRuns', async (client) => {
      const rows = await rowsOf<{ project_id: string; run_id: string }>(
        client,
        'SELECT DISTINCT project_id, run_id FROM spans',
      );
      return rows.map((r) => ({ projectId: r.project_id, runId: r.run_id }));
    });
  }

  /** The project with the most span rows (ties: the first id), with its rows and runs. */
  largestProject(): Promise<{ projectId: string; spans: number; runs: number } | undefined> {
    return this.#runner.run('inspect.largestProject', async (client) => {
      const [row] = await rowsOf<{ project_id: string; spans: string; runs: string }>(
        client,
        'SELECT project_id, count() AS spans, uniqExact(run_id) AS runs FROM spans GROUP BY project_id ORDER BY spans DESC, project_id LIMIT 1',
      );
      return row === undefined
        ? undefined
        : { projectId: row.project_id, spans: Number(row.spans), runs: Number(row.runs) };
    });
  }

  /** The project's run with the most span rows (ties: the first id). */
  largestRun(projectId: string): Promise<{ runId: string; spans: number } | undefined> {
    return this.#runner.run('inspect.largestRun', async (client) => {
      const [row] = await rowsOf<{ run_id: string; spans: string }>(
        client,
        'SELECT run_id, count() AS spans FROM spans WHERE project_id = {projectId:String} GROUP BY run_id ORDER BY spans DESC, run_id LIMIT 1',
        { projectId },
      );
      return row === undefined ? undefined : { runId: row.run_id, spans: Number(row.spans) };
    });
  }

  /** A completed run of the project (one with a `run` span), picked by a hash of its id: the same one on every call. */
  sampleCompletedRun(projectId: string): Promise<{ runId: string; traceId: string } | undefined> {
    return this.#runner.run('inspect.sampleCompletedRun', async (client) => {
      const [row] = await rowsOf<{ run_id: string; trace_id: string }>(
        client,
        `SELECT run_id, trace_id FROM spans WHERE project_id = {projectId:String} AND step_kind = 'run' ORDER BY cityHash64(run_id) LIMIT 1`,
        { projectId },
      );
      return row === undefined ? undefined : { runId: row.run_id, traceId: row.trace_id };
    });
  }

  /** The project's `limit` runs with the latest start, as the run facts hold them. */
  newestFactRuns(projectId: string, limit: number): Promise<string[]> {
    return this.#runner.run('inspect.newestFactRuns', async (client) => {
      const rows = await rowsOf<{ run_id: string }>(
        client,
        'SELECT run_id FROM run_facts FINAL WHERE project_id = {projectId:String} ORDER BY run_start DESC, run_id LIMIT {limit:UInt32}',
        { projectId, limit },
      );
      return rows.map((r) => r.run_id);
    });
  }

  /** Applied migrations, and how many distinct versions they name (equal: none applied twice). */
  migrationsApplied(): Promise<{ applied: number; versions: number }> {
    return this.#runner.run('inspect.migrationsApplied', async (client) => {
      const [row] = await rowsOf<{ n: string | number; versions: string | number }>(
        client,
        'SELECT count() AS n, uniqExact(version) AS versions FROM schema_migrations',
      );
      return { applied: Number(row?.n ?? 0), versions: Number(row?.versions ?? 0) };
    });
  }

  /** Rows of `api_keys` — of one key when given; FINAL: merged to the latest version of each key. */
  apiKeyRows(opts: { keyId?: string; final?: boolean } = {}): Promise<Record<string, unknown>[]> {
    return this.#runner.run('inspect.apiKeyRows', (client) =>
      rowsOf<Record<string, unknown>>(
        client,
        `SELECT * FROM api_keys${opts.final === true ? ' FINAL' : ''}${opts.keyId === undefined ? '' : ' WHERE key_id = {keyId:String}'}`,
        opts.keyId === undefined ? {} : { keyId: opts.keyId },
      ),
    );
  }

  /** ClickHouse's `fn(levels)` over `values` (to compare our percentile definition with the engine's). */
  quantilesOf(fn: QuantilesFunction, levels: readonly number[], values: readonly number[]): Promise<number[]> {
    const list = levelList(levels);
    return this.#runner.run('inspect.quantilesOf', async (client) => {
      const [row] = await rowsOf<{ q: Array<string | number> }>(
        client,
        `SELECT ${fn}(${list})(x) AS q FROM (SELECT arrayJoin({xs:Array(Int64)}) AS x)`,
        { xs: values },
      );
      return (row?.q ?? []).map(Number);
    });
  }

  /** `quantilesExact(levels)` of the stored span durations and their count, per step name. */
  stepDurationQuantiles(
    levels: readonly number[],
  ): Promise<{ stepName: string; quantiles: number[]; count: number }[]> {
    const list = levelList(levels);
    return this.#runner.run('inspect.stepDurationQuantiles', async (client) => {
      const rows = await rowsOf<{ step_name: string; q: Array<string | number>; n: string | number }>(
        client,
        `SELECT step_name, quantilesExact(${list})(duration_ns) AS q, count() AS n FROM spans GROUP BY step_name`,
      );
      return rows.map((r) => ({ stepName: r.step_name, quantiles: r.q.map(Number), count: Number(r.n) }));
    });
  }

  /** Rows, active parts and bytes on disk of each table. */
  tableSizes(tables: readonly InspectedTable[]): Promise<TableSize[]> {
    checkTables(tables);
    return this.#runner.run('inspect.tableSizes', async (client) => {
      const rows = await rowsOf<{ table: InspectedTable; rows: string; parts: string; bytes: string }>(
        client,
        `SELECT table, sum(rows) AS rows, count() AS parts, sum(bytes_on_disk) AS bytes FROM system.parts
         WHERE database = currentDatabase() AND table IN {tables:Array(String)} AND active GROUP BY table`,
        { tables },
      );
      const byTable = new Map(rows.map((r) => [r.table, r]));
      return tables.map((table) => ({
        table,
        rows: Number(byTable.get(table)?.rows ?? 0),
        parts: Number(byTable.get(table)?.parts ?? 0),
        bytesOnDisk: Number(byTable.get(table)?.bytes ?? 0),
      }));
    });
  }

  /** Compressed and uncompressed bytes of each column of a table, largest compressed first. */
  columnSizes(table: InspectedTable): Promise<ColumnSize[]> {
    checkTables([table]);
    return this.#runner.run('inspect.columnSizes', async (client) => {
      const rows = await rowsOf<{ name: string; c: string; u: string }>(
        client,
        `SELECT name, data_compressed_bytes AS c, data_uncompressed_bytes AS u FROM system.columns
         WHERE database = currentDatabase() AND table = {table:String} ORDER BY c DESC`,
        { table },
      );
      return rows.map((r) => ({ column: r.name, compressedBytes: Number(r.c), uncompressedBytes: Number(r.u) }));
    });
  }

  /** The engine's version. */
  engineVersion(): Promise<string> {
    return this.#runner.run('inspect.engineVersion', async (client) => {
      const [row] = await rowsOf<{ v: string }>(client, 'SELECT version() AS v');
      return row?.v ?? 'unknown';
    });
  }

  /** Merges each table's parts into one per partition (`OPTIMIZE … FINAL`; nothing to merge is no error). */
  mergeParts(tables: readonly InspectedTable[]): Promise<void> {
    checkTables(tables);
    return this.#runner.run('inspect.mergeParts', async (client) => {
      for (const table of tables)
        await client.command({
          query: `OPTIMIZE TABLE ${table} FINAL`,
          clickhouse_settings: { optimize_throw_if_noop: 0 },
        });
    });
  }

  /** Empties tables (a test dropping the run facts to see them rebuilt; a bench starting over). */
  truncate(tables: readonly InspectedTable[]): Promise<void> {
    checkTables(tables);
    return this.#runner.run('inspect.truncate', async (client) => {
      for (const table of tables) await client.command({ query: `TRUNCATE TABLE ${table}` });
    });
  }

  /**
   * Stores spans through the JSONEachRow insert, the reference the Arrow
   * path is measured and tested against. The runs are not marked pending
   * for the run facts.
   */
  insertSpansJson(spans: readonly SpanRecord[]): Promise<void> {
    return this.#runner.run('inspect.insertSpansJson', (client) => insertSpansJson(client, spans));
  }

  /**
   * A hand-written SELECT with bound parameters, every row returned: the
   * benchmarks' plain-SQL baselines, which read the tables directly to check
   * and time the repositories' answers. Only SELECT / WITH statements.
   */
  baselineRows<T = Record<string, unknown>>(query: string, params: Record<string, unknown> = {}): Promise<T[]> {
    if (!/^\s*(SELECT|WITH)\b/i.test(query)) throw new RangeError('a baseline query is a SELECT');
    return this.#runner.run('inspect.baselineRows', (client) => rowsOf<T>(client, query, params));
  }
}
