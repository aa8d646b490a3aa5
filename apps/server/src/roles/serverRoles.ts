/** What one `telltale start` process does (`--role`). */
export const SERVER_ROLES = ['all', 'ingest', 'query', 'worker'] as const;
export type ServerRole = (typeof SERVER_ROLES)[number];

/** The parts of the server a role runs; probes and `/metrics` run in every role. */
export interface RoleParts {
  /** OTLP receivers (HTTP and gRPC), the spool and its drainer, finalising the run facts of what it stored. */
  ingest: boolean;
  /** The API and the dashboard. */
  query: boolean;
  /** Alert evaluation and delivery (under the `alert-worker` lease when split), run-facts catch-up, retention. */
  worker: boolean;
  /** Split roles: coordination goes through storage (leases, live alert events). */
  split: boolean;
}

export function partsOf(role: ServerRole): RoleParts {
  return {
    ingest: role === 'all' || role === 'ingest',
    query: role === 'all' || role === 'query',
    worker: role === 'all' || role === 'worker',
    split: role !== 'all',
  };
}

/** Why a configuration cannot run its role, or undefined: one process owns an embedded data directory. */
export function roleConflict(role: ServerRole, clickhouseUrl: string | undefined): string | undefined {
  if (role === 'all' || clickhouseUrl !== undefined) return undefined;
  return `--role ${role} (TELLTALE_ROLE) needs a shared ClickHouse (--clickhouse-url): the embedded engine lets one process open its data directory, so it runs --role all only`;
}
