import { existsSync } from 'node:fs';
import { Option, type Command } from 'commander';
import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';
import type { Store, StoreConnection } from '@telltale/store';

/** Where admin commands find the data: the embedded data directory, or a shared ClickHouse. */
export interface StoreOptions {
  dataDir: string;
  clickhouseUrl?: string;
  clickhouseUser?: string;
  clickhousePassword?: string;
}

export function addStoreOptions(command: Command): Command {
  return command
    .addOption(
      new Option('--data-dir <dir>', 'embedded ClickHouse (chDB) data directory')
        .default('./.telltale')
        .env('TELLTALE_DATA_DIR'),
    )
    .addOption(
      new Option('--clickhouse-url <url>', 'a remote ClickHouse server instead of the embedded engine').env(
        'TELLTALE_CLICKHOUSE_URL',
      ),
    )
    .addOption(new Option('--clickhouse-user <user>').env('TELLTALE_CLICKHOUSE_USER'))
    .addOption(new Option('--clickhouse-password <password>').env('TELLTALE_CLICKHOUSE_PASSWORD'));
}

export function storeConnection(opts: StoreOptions): StoreConnection {
  // an empty variable counts as unset, as for `start`
  if (opts.clickhouseUrl === undefined || opts.clickhouseUrl.trim() === '')
    return { kind: 'embedded', dataDir: opts.dataDir.trim() === '' ? './.telltale' : opts.dataDir };
  return {
    kind: 'remote',
    url: opts.clickhouseUrl,
    ...(opts.clickhouseUser === undefined ? {} : { username: opts.clickhouseUser }),
    ...(opts.clickhousePassword === undefined ? {} : { password: opts.clickhousePassword }),
  };
}

/**
 * Opens the store for one short admin command (migrations applied, no run
 * facts work) and closes it after. An embedded data directory held by a
 * running server fails with a message saying so; with `existing`, so does
 * one that does not exist.
 */
export async function withStore<T>(
  opts: StoreOptions,
  use: (store: Store) => Promise<T>,
  { existing = false }: { existing?: boolean } = {},
): Promise<T> {
  const conn = storeConnection(opts);
  // a command that only reads or removes data must not make an empty store of a mistyped directory
  if (existing && conn.kind === 'embedded' && !existsSync(conn.dataDir))
    throw new TelltaleError({
      code: TelltaleErrorCode.NOT_FOUND,
      message: `no data directory at ${conn.dataDir} (--data-dir, or TELLTALE_DATA_DIR)`,
    });
  // the storage engine loads only for the commands that use it
  const { Store } = await import('@telltale/store');
  const store = await Store.open(conn, { reconcile: false });
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}
