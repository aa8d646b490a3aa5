import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ClickHouseClient } from '@clickhouse/client';
import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';
import { createClickHouseClient, type StoreConnection } from './client.js';
import { migrate } from './migrate.js';
import { migrateLocked } from './coord/migrateLocked.js';
import { Lease, type LeaseOptions } from './coord/Lease.js';
import { insertLiveAlertEvents, recentLiveAlertEvents, type StoredLiveAlertEvent } from './coord/liveAlertEvents.js';
import { MIGRATIONS } from './migrations/index.js';
import { encodeSpanRecordBatch } from './spans/arrow/encodeSpanRecordBatch.js';
import { insertSpanBatches, type SpanBatchMessages } from './spans/insertSpanBatches.js';
import { emptyStagingDir, STAGING_DIR, type InsertTransport } from './insertTransport.js';
import type { SpanRecord } from './spans/SpanRecord.js';
import { RunFacts, type RunFactsOptions } from './facts/RunFacts.js';
import type { RequestFactRows } from './facts/incremental/requestFacts.js';
import { dataDirHolder, lockedDataDirHolder } from './dataDirHolder.js';
import { QueryRunner, type QueryListener } from './QueryRunner.js';
import { MetricsRepository } from './metrics/MetricsRepository.js';
import { AlertsRepository } from './alerts/AlertsRepository.js';
import { AuthRepository } from './keys/AuthRepository.js';
import { PricesRepository } from './prices/PricesRepository.js';
import { RunsRepository } from './runs/RunsRepository.js';
import { ContentRepository } from './content/ContentRepository.js';
import { tableStatements, type TableStatements } from './cluster/clusterMigrations.js';
import { registerStoreRunner } from './internal/storeRunners.js';
import { readEngineMemory, type EngineMemory } from './engine/engineMemory.js';

/**
 * The storage facade every other package uses. Each read takes the caller's
 * project id: no query runs unscoped.
 */
export class Store {
  readonly #client: ClickHouseClient;
  /** The per-run facts behind the run-level overview queries (see facts/RunFacts.ts). */
  readonly runFacts: RunFacts;
  /** The facts of the last span batch stored (RunFacts.addRequestFacts; never rejects). */
  private factsWritten: Promise<void> = Promise.resolve();
  /** The metric queries of the analytics (reliability, latency, cost, loops, failures). */
  readonly metrics: MetricsRepository;
  /** Alert rules, destinations, notifications and state. */
  readonly alerts: AlertsRepository;
  /** Projects and API keys. */
  readonly auth: AuthRepository;
  /** Model price overrides. */
  readonly prices: PricesRepository;
  /** Runs, sessions and their spans. */
  readonly runs: RunsRepository;
  /** The inputs and outputs of spans, kept apart from the span rows. */
  readonly content: ContentRepository;
  private readonly transport: InsertTransport;
  /** How a statement that changes a table reaches the servers (on a cluster: its local tables). */
  private readonly statements: TableStatements;

  private constructor(
    client: ClickHouseClient,
    factsOpts: RunFactsOptions,
    transport: InsertTransport,
    onQuery: QueryListener | undefined,
    cluster: string | undefined,
  ) {
    this.#client = client;
    this.statements = tableStatements(cluster, MIGRATIONS);
    this.runFacts = new RunFacts(client, factsOpts, transport, this.statements);
    const runner = new QueryRunner(client, onQuery);
    registerStoreRunner(this, runner);
    this.metrics = new MetricsRepository(runner, this.runFacts);
    this.alerts = new AlertsRepository(runner);
    this.auth = new AuthRepository(runner);
    this.prices = new PricesRepository(runner);
    this.runs = new RunsRepository(runner, this.runFacts, this.statements);
    this.content = new ContentRepository(runner, transport, this.statements);
    this.transport = transport;
  }

  /**
   * Throws UNAVAILABLE, naming the holder, when another process holds this
   * embedded data directory now: what `open` checks before the engine opens
   * it, for a host to check before anything else it would set up.
   */
  static assertDataDirFree(dataDir: string): void {
    const holder = lockedDataDirHolder(dataDir);
    if (holder !== undefined) throw dataDirInUse(dataDir, holder);
  }

  /**
   * Opens the connection, applies pending migrations, and finalises the
   * runs whose facts are missing or stale (a crash before finalising, spans
   * written by another process, or data from before the facts existed).
   * `reconcile: false` skips that last step (short-lived admin commands).
   * An embedded data directory that another process holds fails with
   * UNAVAILABLE, saying so.
   */
  static async open(
    conn: StoreConnection,
    opts: {
      retentionDays?: number;
      /** Days content is kept (default 7, see migration 0009). */
      contentRetentionDays?: number;
      runFacts?: RunFactsOptions;
      /**
       * false: skip finalising stale run facts — short CLI commands, or a
       * server that catches up in the background (`runFacts.catchUp`).
       */
      reconcile?: boolean;
      /** Hears (done, total) while migrations are applied (only when some are pending). */
      onMigrationProgress?: (done: number, total: number) => void;
      /**
       * Where embedded inserts stage their Arrow files (default: `staging/` in
       * the data directory, emptied at open: a process killed mid-insert
       * leaves its file there, not in the OS temp dir for good).
       */
      arrowTempDir?: string;
      /** Hears every repository operation (`metrics.stepGroupStats`, `alerts.listAlertRules`, …): its duration and rows. */
      onQuery?: QueryListener;
    } = {},
  ): Promise<Store> {
    const stagingDir = conn.kind === 'embedded' ? (opts.arrowTempDir ?? join(conn.dataDir, STAGING_DIR)) : undefined;
    const transport: InsertTransport = stagingDir === undefined ? { kind: 'body' } : { kind: 'file', dir: stagingDir };
    // a data directory another process holds is refused before the engine opens it (and prints its own line)
    if (conn.kind === 'embedded') Store.assertDataDirFree(conn.dataDir);
    let store: Store;
    try {
      const cluster = conn.kind === 'remote' ? conn.cluster : undefined;
      store = new Store(createClickHouseClient(conn), opts.runFacts ?? {}, transport, opts.onQuery, cluster);
    } catch (err) {
      throw explainOpenFailure(conn, err);
    }
    try {
      if (conn.kind === 'remote') {
        await expectClickHouse(store.#client, conn.url);
        // several processes may share remote storage: they take turns (a lease in storage)
        await migrateLocked(store.#client, opts.onMigrationProgress, {
          ...(conn.cluster !== undefined ? { cluster: conn.cluster } : {}),
        });
      } else await migrate(store.#client, undefined, opts.onMigrationProgress);
      // the engine now holds the data directory: no other process stages inserts in its staging dir
      if (stagingDir !== undefined)
        await (opts.arrowTempDir === undefined ? emptyStagingDir(stagingDir) : mkdir(stagingDir, { recursive: true }));
      if (opts.retentionDays !== undefined) await store.setRetentionDays(opts.retentionDays);
      if (opts.contentRetentionDays !== undefined) await store.content.setRetentionDays(opts.contentRetentionDays);
      if (opts.reconcile !== false) await store.runFacts.reconcile();
    } catch (err) {
      await store.close().catch(() => undefined);
      throw explainOpenFailure(conn, err);
    }
    return store;
  }

  /**
   * Stores one batch as one insert (encoded as one Arrow record batch, see
   * insertSpanBatches); its runs become pending for the run facts. Callers
   * batch: every insert makes a part (span inserts bypass ClickHouse's
   * async-insert buffer).
   */
  async insertSpans(spans: readonly SpanRecord[], opts?: { deduplicationToken?: string }): Promise<void> {
    if (spans.length === 0) return;
    await insertSpanBatches(this.#client, this.transport, [encodeSpanRecordBatch(spans)], opts);
    this.runFacts.addSpans(spans);
  }

  /**
   * Stores Arrow record batch messages (encodeSpanRecordBatch) as one
   * ArrowStream insert; the runs they hold become pending for the run facts.
   * `runs` names the (project, run) pairs of the batches' spans — the caller
   * knows them, the bytes are not decoded again; it is read after the insert,
   * so a caller streaming `messages` may fill it as they pass. With a deduplication token
   * (letters, digits and `_.:/+=-`), a repeated insert stores nothing.
   */
  async insertSpanBatches(
    messages: SpanBatchMessages,
    runs: Iterable<{ projectId: string; runId: string }>,
    opts?: {
      deduplicationToken?: string;
      /** Facts ingest workers computed for runs their requests held whole (computeRequestFacts). */
      facts?: ReadonlyArray<{ projectId: string } & RequestFactRows>;
    },
  ): Promise<void> {
    const previous = this.factsWritten;
    try {
      const token = opts?.deduplicationToken;
      await insertSpanBatches(
        this.#client,
        this.transport,
        messages,
        token === undefined ? {} : { deduplicationToken: token },
      );
    } finally {
      await previous;
    }
    this.runFacts.markRuns(runs);
    if (opts?.facts !== undefined && opts.facts.length > 0)
      this.factsWritten = this.runFacts.addRequestFacts(opts.facts);
  }

  /** Spans older than this many days are dropped (whole daily parts). */
  async setRetentionDays(days: number): Promise<void> {
    if (!Number.isInteger(days) || days < 1)
      throw new TelltaleError({
        code: TelltaleErrorCode.INVALID_CONFIG,
        message: `retention must be a whole number of days ≥ 1, got ${days}`,
      });
    const changes = [
      `ALTER TABLE spans MODIFY TTL toDateTime(start_time) + INTERVAL ${days} DAY`,
      ...['run_facts', 'run_step_facts', 'run_steps'].map(
        (table) => `ALTER TABLE ${table} MODIFY TTL toDateTime(run_start) + INTERVAL ${days} DAY`,
      ),
    ];
    for (const change of changes) for (const query of this.statements(change)) await this.#client.command({ query });
  }

  /** Whether the latest migration this build knows is applied (false: the storage was reset or is older). */
  async schemaCurrent(): Promise<boolean> {
    const latest = Math.max(...MIGRATIONS.map((m) => m.version));
    const result = await this.#client.query({
      query: 'SELECT max(version) AS version FROM schema_migrations',
      format: 'JSONEachRow',
    });
    const [row] = await result.json<{ version: number }>();
    return Number(row?.version ?? 0) >= latest;
  }

  /** A lease (or process registry entry) kept in this storage; see coord/Lease.ts. */
  lease(opts: LeaseOptions): Lease {
    return new Lease(this.#client, opts);
  }

  /** Stores live alert events for the alert worker (split roles). */
  insertLiveAlertEvents(events: readonly { eventId: string; projectId: string; payload: string }[]): Promise<void> {
    return insertLiveAlertEvents(this.#client, events);
  }

  /** The live alert events of the last `windowMs`, oldest first. */
  recentLiveAlertEvents(windowMs: number): Promise<StoredLiveAlertEvent[]> {
    return recentLiveAlertEvents(this.#client, windowMs);
  }

  /** True with the embedded engine (its inserts go through staging files), false with remote storage. */
  get embedded(): boolean {
    return this.transport.kind === 'file';
  }

  /**
   * The embedded engine's memory: its allocator's pages and its merges
   * (engine/engineMemory.ts). Undefined with remote storage, which reports
   * its own memory, or when the engine's allocator gives no summary.
   */
  engineMemory(): Promise<EngineMemory | undefined> {
    return this.embedded ? readEngineMemory(this.#client) : Promise.resolve(undefined);
  }

  async ping(): Promise<boolean> {
    const result = await this.#client.ping();
    return result.success;
  }

  /**
   * Finalises pending run facts — for at most `finaliseWithinMs` when given —
   * then closes the connection. What fails or is left is redone by the next
   * open's reconcile.
   */
  async close(opts: { finaliseWithinMs?: number } = {}): Promise<void> {
    await this.factsWritten;
    await this.runFacts.stop(opts.finaliseWithinMs).catch(() => undefined);
    await this.#client.close();
  }
}

/**
 * Fails with STORAGE, naming the address (without credentials) and why,
 * unless a ClickHouse server answers its `/ping` there: nothing listening,
 * a name that does not resolve, or another service on that port.
 */
async function expectClickHouse(client: ClickHouseClient, url: string): Promise<void> {
  const result = await client.ping();
  if (result.success) return;
  const address = new URL(url);
  address.username = '';
  address.password = '';
  const { code, message } = result.error as NodeJS.ErrnoException;
  const why =
    code === 'ECONNREFUSED'
      ? 'nothing listens there (connection refused)'
      : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
        ? `the host ${address.hostname} does not resolve`
        : `its /ping did not answer like ClickHouse: ${message.split('\n', 1)[0]}`;
  throw new TelltaleError({
    code: TelltaleErrorCode.STORAGE,
    message: `no ClickHouse at ${address.origin}${address.pathname === '/' ? '' : address.pathname}: ${why}`,
    cause: result.error,
  });
}

/** chDB lets one process open a data directory: name the holder instead of a bare connection error. */
function explainOpenFailure(conn: StoreConnection, err: unknown): unknown {
  if (conn.kind !== 'embedded') return err;
  const pid = dataDirHolder(conn.dataDir);
  return pid === undefined ? err : dataDirInUse(conn.dataDir, pid, err);
}

function dataDirInUse(dataDir: string, pid: number, cause?: unknown): TelltaleError {
  return new TelltaleError({
    code: TelltaleErrorCode.UNAVAILABLE,
    message:
      `the data directory ${dataDir} is in use by another process (pid ${pid}), most likely a running telltale server: ` +
      'embedded ClickHouse lets one process open it. Stop that server and retry, or run the server and this command ' +
      'against a shared ClickHouse (--clickhouse-url)',
    ...(cause === undefined ? {} : { cause }),
  });
}
