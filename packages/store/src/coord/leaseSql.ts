import type { ClickHouseClient } from '@clickhouse/client';

/**
 * Leases and the process registry: one row per (name, owner), the newest
 * write wins (`written_at`). A candidate is live while its newest
 * `expires_at` is ahead of the server's clock; among the live candidates of
 * a name the one with the earliest `term_started` (then owner) holds it. No
 * compare-and-set is needed: every candidate reads the same rows and comes
 * to the same holder. Expiry is judged by the storage server's clock only.
 */
export const LEASES_DDL = `CREATE TABLE IF NOT EXISTS telltale_leases
  (name String, owner String, role LowCardinality(String) DEFAULT '',
   term_started DateTime64(3, 'UTC'), expires_at DateTime64(3, 'UTC'),
   written_at DateTime64(6, 'UTC') DEFAULT now64(6))
  ENGINE = ReplacingMergeTree(written_at) ORDER BY (name, owner)
  TTL toDateTime(written_at) + INTERVAL 1 DAY`;

export interface LeaseCandidate {
  owner: string;
  role: string;
  termStartedMs: number;
}

/** Writes (or renews) `owner`'s candidacy for `name`, live for `ttlMs` from now (storage clock); `ttlMs` 0 withdraws it. */
export async function writeCandidacy(
  client: ClickHouseClient,
  row: { name: string; owner: string; role: string; termStartedMs: number; ttlMs: number },
): Promise<void> {
  await client.command({
    query: `INSERT INTO telltale_leases (name, owner, role, term_started, expires_at)
      SELECT {name:String}, {owner:String}, {role:String}, fromUnixTimestamp64Milli({term:Int64}, 'UTC'),
        if({ttl:Int64} = 0, toDateTime64(0, 3, 'UTC'), now64(3, 'UTC') + toIntervalMillisecond({ttl:Int64}))`,
    query_params: { name: row.name, owner: row.owner, role: row.role, term: row.termStartedMs, ttl: row.ttlMs },
    clickhouse_settings: { async_insert: 0 },
  });
}

/** The live candidates of `name`, holder first. */
export async function liveCandidates(client: ClickHouseClient, name: string): Promise<LeaseCandidate[]> {
  const result = await client.query({
    query: `SELECT owner, argMax(role, written_at) AS role,
        toUnixTimestamp64Milli(argMax(term_started, written_at)) AS term,
        argMax(expires_at, written_at) AS expires
      FROM telltale_leases WHERE name = {name:String}
      GROUP BY owner HAVING expires > now64(3, 'UTC')
      ORDER BY term, owner`,
    query_params: { name },
    format: 'JSONEachRow',
  });
  const rows = await result.json<{ owner: string; role: string; term: number | string }>();
  return rows.map((r) => ({ owner: r.owner, role: r.role, termStartedMs: Number(r.term) }));
}
