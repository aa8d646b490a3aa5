import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';
import type { Migration } from '../migrations/Migration.js';

/** The Distributed tables' sharding key: a run's spans, steps, facts and trace links live on one shard. */
export const CLUSTER_SHARDING_KEY = 'cityHash64(project_id, run_id)';

/**
 * The sharding key of a rollup's Distributed table (a table with a project but
 * no run). Its rows come from a view on each shard's local spans, so this key
 * only places rows inserted through the Distributed table itself; reads merge
 * the shards' partial states.
 */
export const ROLLUP_SHARDING_KEY = 'cityHash64(project_id)';

/**
 * The sharding key of a table keyed by trace and span with no run (span
 * content): found through its spans, never by run, and its bytes, the
 * largest a project stores, are kept once per shard instead of on every server.
 */
export const TRACE_SHARDING_KEY = 'cityHash64(project_id, trace_id)';

/** Suffix of the shard-local table behind each Distributed table (`spans_local` behind `spans`). */
export const LOCAL_SUFFIX = '_local';

/** Keeper path of a sharded table: one replica set per shard. */
export const SHARDED_ZOO_PATH = '/clickhouse/tables/{shard}/{database}/{table}';

/** Keeper path of a table replicated to every server (projects, keys, prices, alerts): one replica set for the cluster. */
export const GLOBAL_ZOO_PATH = '/clickhouse/tables/all/{database}/{table}';

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const CREATE_TABLE =
  /^CREATE TABLE IF NOT EXISTS ([A-Za-z0-9_]+)\n\(\n([\s\S]*?)\n\)\nENGINE = ([A-Za-z]+)(?:\(([^)]*)\))?(\n[\s\S]*)?$/;
const ALTER_TABLE = /^ALTER TABLE ([A-Za-z0-9_]+) ([\s\S]+)$/;
const CREATE_MV = /^CREATE MATERIALIZED VIEW IF NOT EXISTS ([A-Za-z0-9_]+) TO ([A-Za-z0-9_]+) AS\n([\s\S]+)$/;
const INSERT_SELECT = /^INSERT INTO ([A-Za-z0-9_]+) (\([^)]*\))\n(SELECT [\s\S]+)$/;
const FROM = /\nFROM ([A-Za-z0-9_]+)\n/;
const CREATE_AS =
  /^CREATE TABLE IF NOT EXISTS ([A-Za-z0-9_]+) AS ([A-Za-z0-9_]+)\nENGINE = ([A-Za-z]+)(?:\(([^)]*)\))?(\n[\s\S]*)$/;
const ATTACH_FROM = /^ALTER TABLE ([A-Za-z0-9_]+) ATTACH PARTITION ALL FROM ([A-Za-z0-9_]+)$/;
const EXCHANGE = /^EXCHANGE TABLES ([A-Za-z0-9_]+) AND ([A-Za-z0-9_]+)$/;
const DROP_TABLE = /^DROP TABLE IF EXISTS ([A-Za-z0-9_]+)$/;

/** The keys the Distributed tables shard by. */
type ShardingKey = typeof CLUSTER_SHARDING_KEY | typeof TRACE_SHARDING_KEY | typeof ROLLUP_SHARDING_KEY;

/**
 * How a table is laid out on the cluster, decided by its columns when it is
 * created: on every server, or sharded by a key. Tables placed alike (the
 * same key) keep the same rows on the same shard.
 */
type Placement = 'global' | ShardingKey;

/**
 * The cluster form of a migration list: the same statements, rewritten for a
 * cluster named `cluster` — one place defines the schema, single-node modes
 * run it as written.
 *
 * - A table with `project_id` and `run_id` columns becomes `<name>_local ON
 *   CLUSTER` with the Replicated form of its engine (Keeper path per shard)
 *   and a Distributed table named as before in front of it, sharded by
 *   `cityHash64(project_id, run_id)`: queries keep their table names.
 * - A table with `project_id` and `trace_id` but no run (span content) is
 *   sharded the same way by `cityHash64(project_id, trace_id)`.
 * - A table without a run (projects, keys, prices, alert rules and state) is
 *   replicated to every server under one Keeper path, so each server reads a
 *   whole copy locally; no Distributed table.
 * - `ALTER` goes to the local tables ON CLUSTER; column changes also to the
 *   Distributed table, whose columns must follow.
 * - An AggregatingMergeTree with `project_id` and no `run_id` (a rollup fed by
 *   a view on a sharded table) is sharded too: each shard keeps partial states
 *   of its own runs' spans, the Distributed table in front merges them on read
 *   (sharded by ROLLUP_SHARDING_KEY for direct inserts).
 * - Materialized views read and write the local tables: they fire on the
 *   replica that receives the shard's insert, and replication copies their output.
 * - `INSERT … SELECT` between sharded tables runs shard-locally
 *   (`parallel_distributed_insert_select = 2`): the rows stay on their shard.
 *   Between tables on every server it runs once, as written: replication
 *   copies the rows.
 * - `CREATE TABLE … AS other` places the table as the other one and takes
 *   its local table's structure. `ALTER TABLE … ATTACH PARTITION ALL FROM`
 *   between tables placed alike attaches each shard's parts to its local table.
 * - `EXCHANGE TABLES` swaps the tables ON CLUSTER; for sharded tables the
 *   local ones (each Distributed table names its local table, so it
 *   follows). `DROP TABLE IF EXISTS` drops a table ON CLUSTER; for a
 *   sharded one its Distributed table, then its local one.
 *
 * A statement of another shape throws: a new migration form needs a rule here
 * (the cluster DDL test runs every migration through this).
 */
export function clusterMigrations(migrations: readonly Migration[], cluster: string): Migration[] {
  assertName(cluster);
  const placement = new Map<string, Placement>();
  return [...migrations]
    .sort((a, b) => a.version - b.version)
    .map((m) => ({
      version: m.version,
      name: m.name,
      statements: m.statements.flatMap((s) => clusterStatement(s.trim(), cluster, placement, m)),
    }));
}

/** The cluster DDL of `schema_migrations`: every server holds the whole list. */
export function clusterSchemaMigrationsDdl(cluster: string): string {
  assertName(cluster);
  return `CREATE TABLE IF NOT EXISTS schema_migrations ON CLUSTER ${cluster}
      (version UInt32, name String, applied_at DateTime64(3, 'UTC') DEFAULT now64(3))
      ENGINE = ReplicatedMergeTree('${GLOBAL_ZOO_PATH}', '{replica}') ORDER BY version`;
}

function assertName(cluster: string): void {
  if (!NAME.test(cluster))
    throw new TelltaleError({
      code: TelltaleErrorCode.BAD_REQUEST,
      message: `ClickHouse cluster name must match ${NAME.source}, got ${JSON.stringify(cluster)}`,
    });
}

function clusterStatement(sql: string, cluster: string, placement: Map<string, Placement>, m: Migration): string[] {
  const what = `migration ${m.version} (${m.name})`;
  const create = CREATE_TABLE.exec(sql);
  if (create !== null) {
    const [, table = '', columns = '', engine = '', args, rest = ''] = create;
    const where = shardingKeyOf(columns, engine) ?? 'global';
    placement.set(table, where);
    return clusterCreate(table, `\n(\n${columns}\n)`, { engine, args, rest }, where, cluster);
  }
  // a table made like another one: placed as that one, its structure from that one's local table
  const createAs = CREATE_AS.exec(sql);
  if (createAs !== null) {
    const [, table = '', like = '', engine = '', args, rest = ''] = createAs;
    const where = placementOf(like, placement, what);
    placement.set(table, where);
    const structure = ` AS ${where === 'global' ? like : `${like}${LOCAL_SUFFIX}`}`;
    return clusterCreate(table, structure, { engine, args, rest }, where, cluster);
  }
  const attach = ATTACH_FROM.exec(sql);
  if (attach !== null) {
    const [, table = '', from = ''] = attach;
    const where = placementOf(table, placement, what);
    if (placementOf(from, placement, what) !== where)
      throw unsupported(what, sql, 'parts attached must come from a table placed alike');
    // each shard attaches its own parts; a Distributed table holds none
    const suffix = where === 'global' ? '' : LOCAL_SUFFIX;
    return [`ALTER TABLE ${table}${suffix} ON CLUSTER ${cluster} ATTACH PARTITION ALL FROM ${from}${suffix}`];
  }
  const alter = ALTER_TABLE.exec(sql);
  if (alter !== null) {
    const [, table = '', change = ''] = alter;
    return clusterAlter(table, change, placementOf(table, placement, what), cluster);
  }
  const mv = CREATE_MV.exec(sql);
  if (mv !== null) {
    const [, view = '', target = '', select = ''] = mv;
    const from = FROM.exec(`${select}\n`)?.[1] ?? '';
    if (placementOf(target, placement, what) === 'global' || placementOf(from, placement, what) === 'global')
      throw unsupported(what, sql, 'a materialized view must read and write sharded tables');
    return [
      `CREATE MATERIALIZED VIEW IF NOT EXISTS ${view} ON CLUSTER ${cluster} TO ${target}${LOCAL_SUFFIX} AS\n${select.replace(FROM, `\nFROM ${from}${LOCAL_SUFFIX}\n`)}`,
    ];
  }
  const insert = INSERT_SELECT.exec(sql);
  if (insert !== null) {
    const [, target = '', columns = '', select = ''] = insert;
    const from = FROM.exec(`${select}\n`)?.[1] ?? '';
    const where = placementOf(target, placement, what);
    // shard by shard, each shard's rows stay on it, whatever the target's key (a rollup's partial states)
    if ((placementOf(from, placement, what) === 'global') !== (where === 'global'))
      throw unsupported(what, sql, 'INSERT … SELECT must read and write tables both sharded or both on every server');
    // between tables on every server: one server copies, replication carries the rows to the others
    if (where === 'global') return [sql];
    // both Distributed, same cluster and key, one table read: each shard runs it on its local tables
    return [`INSERT INTO ${target} ${columns}\n${select}\nSETTINGS parallel_distributed_insert_select = 2`];
  }
  const exchange = EXCHANGE.exec(sql);
  if (exchange !== null) {
    const [, a = '', b = ''] = exchange;
    const where = placementOf(a, placement, what);
    if (placementOf(b, placement, what) !== where)
      throw unsupported(what, sql, 'tables exchanged must be placed alike');
    // the Distributed tables keep pointing at their local tables by name: swapping the local ones swaps both
    const suffix = where === 'global' ? '' : LOCAL_SUFFIX;
    return [`EXCHANGE TABLES ${a}${suffix} AND ${b}${suffix} ON CLUSTER ${cluster}`];
  }
  const drop = DROP_TABLE.exec(sql);
  if (drop !== null) {
    const [, table = ''] = drop;
    const where = placementOf(table, placement, what);
    placement.delete(table);
    const dropped = (name: string): string => `DROP TABLE IF EXISTS ${name} ON CLUSTER ${cluster} SYNC`;
    return where === 'global' ? [dropped(table)] : [dropped(table), dropped(`${table}${LOCAL_SUFFIX}`)];
  }
  throw unsupported(what, sql, 'no cluster rule for this statement');
}

/**
 * The sharding key of a table created with these columns and engine, or
 * undefined for a table on every server: a project's runs by run, its
 * content by trace, a rollup (AggregatingMergeTree fed by a view on a
 * sharded table: per-shard partial states) by project.
 */
function shardingKeyOf(columns: string, engine: string): ShardingKey | undefined {
  const has = (column: string): boolean => new RegExp(`^\\s+${column} `, 'm').test(columns);
  if (!has('project_id')) return undefined;
  if (has('run_id')) return CLUSTER_SHARDING_KEY;
  if (has('trace_id')) return TRACE_SHARDING_KEY;
  return engine === 'AggregatingMergeTree' ? ROLLUP_SHARDING_KEY : undefined;
}

/**
 * A table's cluster DDL: its Replicated local table ON CLUSTER (the
 * structure as written: a column list or `AS` another table), and for a
 * sharded table the Distributed table in front of it, named as the table.
 */
function clusterCreate(
  table: string,
  structure: string,
  storage: { engine: string; args: string | undefined; rest: string },
  where: Placement,
  cluster: string,
): string[] {
  const { engine, args, rest } = storage;
  const local = where === 'global' ? table : `${table}${LOCAL_SUFFIX}`;
  const zooArgs = `'${where === 'global' ? GLOBAL_ZOO_PATH : SHARDED_ZOO_PATH}', '{replica}'`;
  const replicated = `Replicated${engine}(${zooArgs}${args === undefined || args === '' ? '' : `, ${args}`})`;
  // a token-deduplicated retry keeps working: Replicated tables keep their block ids in Keeper, in their own window
  const settings = rest.replace(/\bnon_replicated_deduplication_window\b/g, 'replicated_deduplication_window');
  const localDdl = `CREATE TABLE IF NOT EXISTS ${local} ON CLUSTER ${cluster}${structure}\nENGINE = ${replicated}${settings}`;
  if (where === 'global') return [localDdl];
  return [
    localDdl,
    `CREATE TABLE IF NOT EXISTS ${table} ON CLUSTER ${cluster} AS ${local}\nENGINE = Distributed(${cluster}, currentDatabase(), ${local}, ${where})`,
  ];
}

/** `ALTER TABLE table change` on the cluster: the local tables ON CLUSTER; column changes also the Distributed table. */
function clusterAlter(table: string, change: string, where: Placement, cluster: string): string[] {
  if (where === 'global') return [`ALTER TABLE ${table} ON CLUSTER ${cluster} ${change}`];
  const localAlter = `ALTER TABLE ${table}${LOCAL_SUFFIX} ON CLUSTER ${cluster} ${change}`;
  // a Distributed table has columns but no indexes or MergeTree settings
  return /^(ADD|MODIFY|DROP|RENAME) COLUMN /.test(change)
    ? [localAlter, `ALTER TABLE ${table} ON CLUSTER ${cluster} ${change}`]
    : [localAlter];
}

/** A statement that changes a table, as the connection's servers take it (tableStatements). */
export type TableStatements = (sql: string) => string[];

const DELETE_FROM = /^DELETE FROM ([A-Za-z0-9_]+) WHERE ([\s\S]+)$/;

/**
 * How a statement that changes a table after the migrations (a retention
 * TTL, a lightweight delete) is sent: as written on one server; on a
 * cluster (`cluster` defined), in its cluster form, by where the migrations
 * placed its table. `ALTER` as in a migration. `DELETE FROM` a sharded table
 * goes to its local tables ON CLUSTER (a Distributed table takes no
 * mutation; each shard deletes its own rows, replication carries it to the
 * shard's other replica), from a table on every server ON CLUSTER. Query
 * parameters may stay: the server that receives the statement puts their
 * values in before it sends it on.
 */
export function tableStatements(cluster: string | undefined, migrations: readonly Migration[]): TableStatements {
  if (cluster === undefined) return (sql) => [sql];
  assertName(cluster);
  const placement = new Map<string, Placement>();
  for (const m of [...migrations].sort((a, b) => a.version - b.version))
    for (const statement of m.statements) {
      const create = CREATE_TABLE.exec(statement.trim());
      if (create !== null) placement.set(create[1] ?? '', shardingKeyOf(create[2] ?? '', create[3] ?? '') ?? 'global');
      const createAs = CREATE_AS.exec(statement.trim());
      if (createAs !== null) placement.set(createAs[1] ?? '', placementOf(createAs[2] ?? '', placement, 'a migration'));
      const drop = DROP_TABLE.exec(statement.trim());
      if (drop !== null) placement.delete(drop[1] ?? '');
    }
  const what = 'a statement after the migrations';
  return (sql) => {
    const statement = sql.trim();
    const alter = ALTER_TABLE.exec(statement);
    if (alter !== null) {
      const [, table = '', change = ''] = alter;
      return clusterAlter(table, change, placementOf(table, placement, what), cluster);
    }
    const del = DELETE_FROM.exec(statement);
    if (del !== null) {
      const [, table = '', where = ''] = del;
      const target = placementOf(table, placement, what) === 'global' ? table : `${table}${LOCAL_SUFFIX}`;
      return [`DELETE FROM ${target} ON CLUSTER ${cluster} WHERE ${where}`];
    }
    throw unsupported(what, statement, 'no cluster rule for this statement');
  };
}

function placementOf(table: string, placement: Map<string, Placement>, what: string): Placement {
  const where = placement.get(table);
  if (where === undefined) throw unsupported(what, table, `table ${table} was not created by an earlier migration`);
  return where;
}

/** `what`: `migration N (name)`, or what else the statement is. */
function unsupported(what: string, sql: string, why: string): Error {
  // invariant: migrations and later statements are our own constants; a miss is a bug caught by the cluster DDL tests
  return new Error(`cluster DDL for ${what}: ${why}: ${sql.slice(0, 80)}`);
}
