import { query } from 'chdb';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../migrations/index.js';
import type { Migration } from '../migrations/Migration.js';
import {
  CLUSTER_SHARDING_KEY,
  clusterMigrations,
  clusterSchemaMigrationsDdl,
  GLOBAL_ZOO_PATH,
  ROLLUP_SHARDING_KEY,
  SHARDED_ZOO_PATH,
  tableStatements,
  TRACE_SHARDING_KEY,
} from './clusterMigrations.js';

const CLUSTER = 'telltale';
const cluster = clusterMigrations(MIGRATIONS, CLUSTER);
const statements = [clusterSchemaMigrationsDdl(CLUSTER), ...cluster.flatMap((m) => m.statements)];

/** The engine's own parser (chDB): formatQuery throws a syntax error on anything it cannot parse. */
function format(sql: string): string {
  const literal = `'${sql.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  return query(`SELECT formatQuery(${literal})`, 'TSVRaw').trim();
}

/** The tables the single-node schema creates, with whether they have a run id column. */
function singleNodeTables(): Map<string, boolean> {
  const tables = new Map<string, boolean>();
  for (const s of MIGRATIONS.flatMap((m) => m.statements)) {
    const m = /^CREATE TABLE IF NOT EXISTS (\w+)\n\(([\s\S]*?)\n\)\nENGINE/.exec(s.trim());
    if (m !== null) tables.set(m[1] ?? '', /^\s+run_id /m.test(m[2] ?? ''));
  }
  return tables;
}

describe('cluster DDL', () => {
  it('parses in ClickHouse’s own parser, every statement of every migration', () => {
    expect(cluster.map((m) => m.version)).toEqual(MIGRATIONS.map((m) => m.version));
    for (const sql of statements) {
      const formatted = format(sql);
      expect(formatted.length, sql).toBeGreaterThan(0);
      // formatted back, it still says what we sent: ON CLUSTER survives the parse
      if (/^(CREATE|ALTER|EXCHANGE|DROP)/.test(sql)) expect(formatted, sql).toContain(`ON CLUSTER ${CLUSTER}`);
    }
  });

  it('the parser check can fail: a broken statement throws', () => {
    expect(() => format('CREATE TABLE x ON CLUSTER c (a String ENGINE = Distributed(c')).toThrow(/Syntax error/);
  });

  it('matches the reviewed snapshot', async () => {
    const text = cluster
      .map((m) => `-- ${String(m.version).padStart(4, '0')} ${m.name}\n${m.statements.join(';\n\n')};\n`)
      .join('\n');
    await expect(`${clusterSchemaMigrationsDdl(CLUSTER)};\n\n${text}`).toMatchFileSnapshot(
      '__snapshots__/clusterDdl.sql',
    );
  });

  it('every DDL statement runs ON CLUSTER, every table is Replicated or Distributed', () => {
    for (const sql of statements.filter((s) => /^(CREATE|ALTER|DROP)/.test(s))) {
      expect(sql).toMatch(new RegExp(`^(CREATE|ALTER|DROP) [A-Z ]*?\\w+ ON CLUSTER ${CLUSTER}\\b`));
      const engine = /\sENGINE = (\w+)/.exec(sql)?.[1];
      if (/^CREATE TABLE/.test(sql)) expect(engine).toMatch(/^(Replicated\w*MergeTree|Distributed)$/);
    }
  });

  it('tables with a run id: a Replicated local table per shard, Distributed in front by the run-id key', () => {
    const tables = singleNodeTables();
    const withRuns = [...tables].filter(([, run]) => run).map(([t]) => t);
    expect(withRuns.sort()).toEqual(['run_facts', 'run_step_facts', 'run_steps', 'spans', 'trace_runs']);
    for (const table of withRuns) {
      const local = statements.filter((s) => s.startsWith(`CREATE TABLE IF NOT EXISTS ${table}_local ON CLUSTER`));
      expect(local, table).toHaveLength(1);
      expect(local[0]).toMatch(
        new RegExp(`ENGINE = Replicated\\w*MergeTree\\('${escape(SHARDED_ZOO_PATH)}', '\\{replica\\}'`),
      );
      const dist = statements.filter((s) => s.startsWith(`CREATE TABLE IF NOT EXISTS ${table} ON CLUSTER`));
      expect(dist, table).toEqual([
        `CREATE TABLE IF NOT EXISTS ${table} ON CLUSTER ${CLUSTER} AS ${table}_local\nENGINE = Distributed(${CLUSTER}, currentDatabase(), ${table}_local, ${CLUSTER_SHARDING_KEY})`,
      ]);
    }
    expect(CLUSTER_SHARDING_KEY).toBe('cityHash64(project_id, run_id)');
  });

  it('a rollup (AggregatingMergeTree with a project, no run): per-shard states behind a Distributed table', () => {
    const local = statements.filter((s) => s.startsWith('CREATE TABLE IF NOT EXISTS span_rollup_1m_local ON CLUSTER'));
    expect(local).toHaveLength(1);
    expect(local[0]).toContain(`ENGINE = ReplicatedAggregatingMergeTree('${SHARDED_ZOO_PATH}', '{replica}')`);
    expect(local[0]).toContain('replicated_deduplication_window = 1000');
    expect(statements).toContain(
      `CREATE TABLE IF NOT EXISTS span_rollup_1m ON CLUSTER ${CLUSTER} AS span_rollup_1m_local\nENGINE = Distributed(${CLUSTER}, currentDatabase(), span_rollup_1m_local, ${ROLLUP_SHARDING_KEY})`,
    );
    const mv = statements.find((s) => s.startsWith('CREATE MATERIALIZED VIEW IF NOT EXISTS span_rollup_1m_mv'));
    expect(mv).toContain('TO span_rollup_1m_local AS');
    expect(mv).toContain('\nFROM spans_local\n');
  });

  it('span content (a trace and span, no run): a Replicated local table per shard, Distributed in front by trace', () => {
    for (const table of ['span_content', 'span_content_next']) {
      const local = statements.filter((s) => s.startsWith(`CREATE TABLE IF NOT EXISTS ${table}_local ON CLUSTER`));
      expect(local, table).toHaveLength(1);
      expect(local[0]).toContain(
        `ENGINE = ReplicatedReplacingMergeTree('${SHARDED_ZOO_PATH}', '{replica}', ingested_at)`,
      );
      expect(statements).toContain(
        `CREATE TABLE IF NOT EXISTS ${table} ON CLUSTER ${CLUSTER} AS ${table}_local\nENGINE = Distributed(${CLUSTER}, currentDatabase(), ${table}_local, ${TRACE_SHARDING_KEY})`,
      );
    }
    expect(TRACE_SHARDING_KEY).toBe('cityHash64(project_id, trace_id)');
  });

  it('tables without a run: one replica set on every server (no shard in the Keeper path)', () => {
    const sharded = ['span_rollup_1m', 'span_content', 'span_content_next'];
    const global = [...singleNodeTables()].filter(([t, run]) => !run && !sharded.includes(t)).map(([t]) => t);
    expect(global.sort()).toEqual([
      'alert_delivery_attempts',
      'alert_destinations',
      'alert_history',
      'alert_notifications',
      'alert_rules',
      'alert_state',
      'api_keys',
      'live_alert_events',
      'model_prices',
      'projects',
    ]);
    for (const table of global) {
      const ddl = statements.filter((s) => s.startsWith(`CREATE TABLE IF NOT EXISTS ${table} ON CLUSTER`));
      expect(ddl, table).toHaveLength(1);
      expect(ddl[0]).toContain(`('${GLOBAL_ZOO_PATH}', '{replica}'`);
    }
  });

  it('keeps each engine’s own arguments after the Keeper path and replica', () => {
    const spans = statements.find((s) => s.startsWith('CREATE TABLE IF NOT EXISTS spans_local'));
    expect(spans).toContain(`ENGINE = ReplicatedReplacingMergeTree('${SHARDED_ZOO_PATH}', '{replica}', ingested_at)`);
    expect(spans).toContain('replicated_deduplication_window = 1000');
    expect(spans).not.toContain('non_replicated_deduplication_window');
    const prices = statements.find((s) => s.startsWith('CREATE TABLE IF NOT EXISTS model_prices'));
    expect(prices).toContain(`('${GLOBAL_ZOO_PATH}', '{replica}', updated_at, is_deleted)`);
  });

  it('materialized views read and write local tables; INSERT … SELECT runs shard-locally', () => {
    const mv = statements.filter((s) => s.startsWith('CREATE MATERIALIZED VIEW IF NOT EXISTS trace_runs_mv'));
    expect(mv).toHaveLength(1);
    expect(mv[0]).toContain('TO trace_runs_local AS');
    expect(mv[0]).toContain('\nFROM spans_local\n');
    const inserts = statements.filter((s) => s.startsWith('INSERT INTO trace_runs '));
    expect(inserts).toHaveLength(1);
    expect(inserts[0]).toMatch(
      /^INSERT INTO trace_runs [\s\S]*\nFROM spans\n[\s\S]*SETTINGS parallel_distributed_insert_select = 2$/,
    );
  });

  it('column changes reach the Distributed table too; index and setting changes only the local one', () => {
    const alters = cluster.find((m) => m.version === 7)?.statements ?? [];
    expect(alters.filter((s) => s.startsWith('ALTER TABLE spans ON CLUSTER'))).toHaveLength(2);
    expect(alters.filter((s) => s.startsWith('ALTER TABLE spans_local ON CLUSTER'))).toHaveLength(3);
    const settings = cluster.find((m) => m.version === 5)?.statements ?? [];
    expect(settings).toEqual([
      `ALTER TABLE spans_local ON CLUSTER ${CLUSTER} MODIFY SETTING min_bytes_for_wide_part = 134217728, merge_selector_base = 10`,
    ]);
  });

  it('a table made again: swapped and the old one dropped ON CLUSTER, sharded tables by their local tables', () => {
    // span_content is sharded by trace: its local tables swapped, the old rows copied shard by shard
    const remade = cluster.find((m) => m.version === 14)?.statements ?? [];
    expect(remade.map((s) => s.split('\n')[0])).toEqual([
      `CREATE TABLE IF NOT EXISTS span_content_next_local ON CLUSTER ${CLUSTER}`,
      `CREATE TABLE IF NOT EXISTS span_content_next ON CLUSTER ${CLUSTER} AS span_content_next_local`,
      `EXCHANGE TABLES span_content_local AND span_content_next_local ON CLUSTER ${CLUSTER}`,
      'INSERT INTO span_content (project_id, trace_id, span_id, start_time, input, output, truncated, original_bytes, capture, redactions,',
      `DROP TABLE IF EXISTS span_content_next ON CLUSTER ${CLUSTER} SYNC`,
      `DROP TABLE IF EXISTS span_content_next_local ON CLUSTER ${CLUSTER} SYNC`,
    ]);
    expect(remade[3]).toMatch(/\nFROM span_content_next\nSETTINGS parallel_distributed_insert_select = 2$/);
    const sharded = clusterMigrations(
      [
        ...MIGRATIONS.filter((m) => m.version === 1),
        {
          version: 2,
          name: 'remake',
          statements: [
            (MIGRATIONS[0]?.statements[0] ?? '').replace('EXISTS spans\n', 'EXISTS spans_next\n'),
            'EXCHANGE TABLES spans AND spans_next',
            'DROP TABLE IF EXISTS spans_next',
          ],
        },
      ],
      CLUSTER,
    )[1]?.statements;
    expect(sharded?.map((s) => s.split('\n')[0])).toEqual([
      `CREATE TABLE IF NOT EXISTS spans_next_local ON CLUSTER ${CLUSTER}`,
      `CREATE TABLE IF NOT EXISTS spans_next ON CLUSTER ${CLUSTER} AS spans_next_local`,
      `EXCHANGE TABLES spans_local AND spans_next_local ON CLUSTER ${CLUSTER}`,
      `DROP TABLE IF EXISTS spans_next ON CLUSTER ${CLUSTER} SYNC`,
      `DROP TABLE IF EXISTS spans_next_local ON CLUSTER ${CLUSTER} SYNC`,
    ]);
    // tables placed otherwise, or one no migration made, have no rule
    expect(() =>
      clusterMigrations(
        [...MIGRATIONS.filter((m) => m.version <= 10), remake('EXCHANGE TABLES spans AND projects')],
        CLUSTER,
      ),
    ).toThrow(/placed alike/);
    expect(() => clusterMigrations([remake('DROP TABLE IF EXISTS nowhere')], CLUSTER)).toThrow(/not created/);
  });

  it('a table made like another: placed as it, its parts attached shard by shard', () => {
    // spans made again with finer granules: the new local table takes the old local table's structure
    const remade = cluster.find((m) => m.version === 16)?.statements ?? [];
    expect(remade.map((s) => s.split('\n')[0])).toEqual([
      `CREATE TABLE IF NOT EXISTS spans_fine_local ON CLUSTER ${CLUSTER} AS spans_local`,
      `CREATE TABLE IF NOT EXISTS spans_fine ON CLUSTER ${CLUSTER} AS spans_fine_local`,
      `EXCHANGE TABLES spans_local AND spans_fine_local ON CLUSTER ${CLUSTER}`,
      `ALTER TABLE spans_local ON CLUSTER ${CLUSTER} ATTACH PARTITION ALL FROM spans_fine_local`,
      `DROP TABLE IF EXISTS spans_fine ON CLUSTER ${CLUSTER} SYNC`,
      `DROP TABLE IF EXISTS spans_fine_local ON CLUSTER ${CLUSTER} SYNC`,
    ]);
    expect(remade[0]).toContain(
      `ENGINE = ReplicatedReplacingMergeTree('${SHARDED_ZOO_PATH}', '{replica}', ingested_at)`,
    );
    expect(remade[0]).toContain('replicated_deduplication_window = 1000');
    expect(remade[1]).toContain(
      `Distributed(${CLUSTER}, currentDatabase(), spans_fine_local, ${CLUSTER_SHARDING_KEY})`,
    );
    // a table on every server made like another stays on every server; parts only between tables placed alike
    const upTo10 = MIGRATIONS.filter((m) => m.version <= 10);
    const [global] =
      clusterMigrations(
        [
          ...upTo10,
          remake(
            'CREATE TABLE IF NOT EXISTS projects_copy AS projects\nENGINE = ReplacingMergeTree(version)\nORDER BY id',
          ),
        ],
        CLUSTER,
      ).at(-1)?.statements ?? [];
    expect(global).toBe(
      `CREATE TABLE IF NOT EXISTS projects_copy ON CLUSTER ${CLUSTER} AS projects\nENGINE = ReplicatedReplacingMergeTree('${GLOBAL_ZOO_PATH}', '{replica}', version)\nORDER BY id`,
    );
    expect(() =>
      clusterMigrations([...upTo10, remake('ALTER TABLE spans ATTACH PARTITION ALL FROM span_content')], CLUSTER),
    ).toThrow(/placed alike/);
    expect(() =>
      clusterMigrations(
        [...upTo10, remake('CREATE TABLE IF NOT EXISTS t AS nowhere\nENGINE = MergeTree\nORDER BY a')],
        CLUSTER,
      ),
    ).toThrow(/not created/);
  });

  it('leaves the single-node migrations as they are', () => {
    const before = JSON.stringify(MIGRATIONS);
    clusterMigrations(MIGRATIONS, 'other');
    expect(JSON.stringify(MIGRATIONS)).toBe(before);
    expect(MIGRATIONS.flatMap((m) => m.statements).join('\n')).not.toMatch(/ON CLUSTER|Replicated|Distributed/);
  });

  it('statements after the migrations (retention, deletes) reach the tables the migrations placed', () => {
    const onCluster = tableStatements(CLUSTER, MIGRATIONS);
    const ttl = 'MODIFY TTL toDateTime(start_time) + INTERVAL 30 DAY';
    expect(onCluster(`ALTER TABLE spans ${ttl}`)).toEqual([`ALTER TABLE spans_local ON CLUSTER ${CLUSTER} ${ttl}`]);
    expect(onCluster(`ALTER TABLE span_content ${ttl}`)).toEqual([
      `ALTER TABLE span_content_local ON CLUSTER ${CLUSTER} ${ttl}`,
    ]);
    const where = 'project_id = {projectId:String} AND run_id IN {runIds:Array(String)}';
    expect(onCluster(`DELETE FROM run_facts WHERE ${where}`)).toEqual([
      `DELETE FROM run_facts_local ON CLUSTER ${CLUSTER} WHERE ${where}`,
    ]);
    expect(onCluster(`DELETE FROM alert_rules WHERE project_id = 'p'`)).toEqual([
      `DELETE FROM alert_rules ON CLUSTER ${CLUSTER} WHERE project_id = 'p'`,
    ]);
    for (const sql of [...onCluster(`ALTER TABLE run_steps ${ttl}`), ...onCluster(`DELETE FROM spans WHERE ${where}`)])
      expect(format(sql)).toContain(`ON CLUSTER ${CLUSTER}`);
    // a table no migration made, or a statement of another kind, is a bug: it throws
    expect(() => onCluster('DELETE FROM nowhere WHERE 1')).toThrow(/table nowhere was not created/);
    expect(() => onCluster('OPTIMIZE TABLE spans FINAL')).toThrow(/after the migrations: no cluster rule/);
    // one server: as written
    expect(tableStatements(undefined, MIGRATIONS)(`ALTER TABLE spans ${ttl}`)).toEqual([`ALTER TABLE spans ${ttl}`]);
  });

  it('refuses a cluster name that is not an identifier', () => {
    expect(() => clusterMigrations(MIGRATIONS, 'a b; DROP')).toThrow(/cluster name must match/);
  });

  it('refuses a statement it has no rule for', () => {
    expect(() =>
      clusterMigrations([{ version: 99, name: 'x', statements: ['OPTIMIZE TABLE spans FINAL'] }], CLUSTER),
    ).toThrow(/no cluster rule/);
  });
});

function remake(sql: string): Migration {
  return { version: 99, name: 'remake', statements: [sql] };
}

function escape(s: string): string {
  return s.replace(/[{}()[\].*+?^$|\\/]/g, '\\$&');
}
