import type { ClickHouseClient } from '@clickhouse/client';
import { clusterMigrations } from '../cluster/clusterMigrations.js';
import { migrate } from '../migrate.js';
import { Lease } from './Lease.js';
import { LEASES_DDL } from './leaseSql.js';

/** A migrating process renews this often; one that died frees the lock after MIGRATION_LEASE_TTL_MS. */
const MIGRATION_LEASE_TTL_MS = 30_000;
const MIGRATION_LEASE_RENEW_MS = 5_000;
/** How long a process waits for others' migrations before it gives up. */
const MIGRATION_WAIT_MS = 10 * 60_000;

/**
 * `migrate` for storage that several processes share (remote ClickHouse):
 * they queue on the `migrations` lease, one at a time; the first applies
 * what is pending, the others find nothing left. The lease table itself is
 * created with `IF NOT EXISTS`, retried when a concurrent create races.
 */
export async function migrateLocked(
  client: ClickHouseClient,
  onProgress?: (done: number, total: number) => void,
  opts: { cluster?: string } = {},
): Promise<number[]> {
  await retryRaces(() => client.command({ query: leasesDdl(opts.cluster) }));
  const lease = new Lease(client, {
    name: 'migrations',
    role: 'migrate',
    ttlMs: MIGRATION_LEASE_TTL_MS,
    renewMs: MIGRATION_LEASE_RENEW_MS,
    settleMs: 500,
  });
  await lease.acquire(MIGRATION_WAIT_MS);
  try {
    return await retryRaces(() => migrate(client, undefined, onProgress, opts));
  } finally {
    await lease.stop();
  }
}

/** Concurrent `CREATE … IF NOT EXISTS` of one table can fail with TABLE_ALREADY_EXISTS (57) in the loser: once more finds it there. */
async function retryRaces<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (attempt >= 3 || (code !== '57' && code !== 57)) throw err;
    }
  }
}

/** The lease table's DDL: on a cluster, replicated to every server like the other tables without a run. */
function leasesDdl(cluster: string | undefined): string {
  if (cluster === undefined) return LEASES_DDL;
  const [statement] = clusterMigrations([{ version: 0, name: 'leases', statements: [LEASES_DDL] }], cluster)[0]!
    .statements;
  return statement!;
}
