import {
  ClickHouseLogLevel,
  createClient,
  type ClickHouseClient,
  type ClickHouseSettings,
  type ErrorLogParams,
  type LogParams,
  type WarnLogParams,
} from '@clickhouse/client';
import { createChdbConnection } from 'chdb/connection';

/** A warning or error of the ClickHouse client itself (a failed request, a setting overridden). */
export interface ClientLogEntry {
  module: string;
  message: string;
  args?: Record<string, unknown>;
  err?: Error;
}

/** Receives the ClickHouse client's own warnings and errors; without it the client prints them on the console. */
export type ClientLogSink = (level: 'warn' | 'error', entry: ClientLogEntry) => void;

/** Where the data lives: an embedded chDB directory, or a remote ClickHouse over HTTP. */
export type StoreConnection =
  | { kind: 'embedded'; dataDir: string; onClientLog?: ClientLogSink }
  | {
      kind: 'remote';
      url: string;
      username?: string;
      password?: string;
      database?: string;
      /**
       * A ClickHouse cluster (`remote_servers`) name: migrations create the
       * cluster schema (clusterMigrations) and every query carries
       * CLUSTER_QUERY_SETTINGS.
       */
      cluster?: string;
      onClientLog?: ClientLogSink;
    };

/**
 * Settings of every query in cluster mode. An acknowledged insert is on a
 * replica of every shard it touched (`insert_distributed_sync`: the
 * Distributed table forwards in the foreground instead of queueing the
 * block on the receiving server's disk); `INSERT … SELECT` between the
 * Distributed tables (the run-facts finaliser) runs on each shard over its
 * local tables; reads that name runs skip the shards that cannot hold them;
 * a retried insert (same deduplication token) is dropped by the views' targets too.
 * A read of the Distributed tables whose IN or JOIN subqueries read them
 * again (runs against their facts, loops against their steps) runs those
 * subqueries once, on the server that received it, and sends their result to
 * the shards (`distributed_product_mode`): ClickHouse refuses such reads by
 * default, and running them shard-locally would miss rows of other shards
 * (an agent's median over all its runs).
 */
export const CLUSTER_QUERY_SETTINGS: Readonly<ClickHouseSettings> = {
  insert_distributed_sync: 1,
  parallel_distributed_insert_select: '2',
  optimize_skip_unused_shards: 1,
  deduplicate_blocks_in_dependent_materialized_views: 1,
  distributed_product_mode: 'global',
};

/**
 * The client's `log` setting: its warnings and errors go to `sink` (the
 * client constructs the logger class itself); with no sink, nowhere (what
 * fails reaches the caller as an error: a CLI command prints one line).
 */
function clientLog(sink: ClientLogSink | undefined): {
  log: { LoggerClass?: new () => ClientLogger; level: ClickHouseLogLevel };
} {
  if (sink === undefined) return { log: { level: ClickHouseLogLevel.OFF } };
  return {
    log: {
      LoggerClass: class implements ClientLogger {
        trace(): void {}
        debug(): void {}
        info(): void {}
        warn(params: WarnLogParams): void {
          sink('warn', params);
        }
        error(params: ErrorLogParams): void {
          sink('error', params);
        }
      },
      level: ClickHouseLogLevel.WARN,
    },
  };
}

interface ClientLogger {
  trace(params: LogParams): void;
  debug(params: LogParams): void;
  info(params: LogParams): void;
  warn(params: WarnLogParams): void;
  error(params: ErrorLogParams): void;
}

type ClientConnection = NonNullable<Parameters<typeof createClient>[0]>['connection'];

/**
 * chdb is typed against @clickhouse/client-common 1.23.0 while the client
 * bundles its own copy of those types (1.23.1): identical at run time, but a
 * few settings keys differ, so TypeScript needs this one bridge.
 */
function chdbConnection(path: string): ClientConnection {
  return createChdbConnection({ path }) as unknown as ClientConnection;
}

/**
 * The one client factory. Both engines go through `@clickhouse/client`, so the
 * SQL is the same; only the transport differs. chDB binds one data directory
 * per process: open a directory once and share the client.
 */
export function createClickHouseClient(conn: StoreConnection): ClickHouseClient {
  switch (conn.kind) {
    case 'embedded':
      return createClient({ connection: chdbConnection(conn.dataDir), ...clientLog(conn.onClientLog) });
    case 'remote':
      return createClient({
        url: conn.url,
        ...(conn.username === undefined ? {} : { username: conn.username }),
        ...(conn.password === undefined ? {} : { password: conn.password }),
        ...(conn.database === undefined ? {} : { database: conn.database }),
        ...(conn.cluster === undefined ? {} : { clickhouse_settings: { ...CLUSTER_QUERY_SETTINGS } }),
        request_timeout: 30_000,
        compression: { request: false, response: true },
        ...clientLog(conn.onClientLog),
      });
  }
}
