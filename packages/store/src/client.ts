import { createClient, type ClickHouseClient } from '@clickhouse/client';
import { createChdbConnection } from 'chdb/connection';

/** Where the data lives: an embedded chDB directory, or a remote ClickHouse over HTTP. */
export type StoreConnection =
  | { kind: 'embedded'; dataDir: string }
  | { kind: 'remote'; url: string; username?: string; password?: string; database?: string };

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
      return createClient({ connection: chdbConnection(conn.dataDir) });
    case 'remote':
      return createClient({
        url: conn.url,
        ...(conn.username === undefined ? {} : { username: conn.username }),
        ...(conn.password === undefined ? {} : { password: conn.password }),
        ...(conn.database === undefined ? {} : { database: conn.database }),
        request_timeout: 30_000,
        compression: { request: false, response: true },
      });
  }
}
