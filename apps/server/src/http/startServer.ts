import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  AlertDispatcher,
  AlertEvaluator,
  AlertService,
  checkPolicy,
  measureRule,
  type LiveAlertEvent,
} from '@telltale/alerts';
import { Analytics } from '@telltale/analytics';
import { ContentDrops } from '../ops/ContentDrops.js';
import { EngineThreadPriority } from '../ops/EngineThreadPriority.js';
import { loadLibc } from '../memory/libc.js';
import { MemoryReturn } from '../memory/MemoryReturn.js';
import {
  Collector,
  DEFAULT_SPAN_LIMITS,
  LiveLoopDetector,
  lockSpoolDir,
  type OtlpGrpcServer,
} from '@telltale/collector';
import { Store, type ClientLogSink, type StoreConnection } from '@telltale/store';
import { DEFAULT_LOOP_THRESHOLDS } from '@telltale/semconv';
import type { Logger } from 'pino';
import { createApiApp } from '../api/createApiApp.js';
import { AdminGate } from '../auth/AdminGate.js';
import { Authenticator } from '../auth/Authenticator.js';
import { IngestQuota } from '../auth/IngestQuota.js';
import { KeyCache } from '../auth/KeyCache.js';
import { loadKeySnapshot } from '../auth/loadKeySnapshot.js';
import { resolveAuthMode, type AuthMode } from '../auth/resolveAuthMode.js';
import type { StartConfig } from '../config.js';
import { createLogger } from '../log/createLogger.js';
import { logStoreQuery } from '../log/logStoreQuery.js';
import { logApiAccess } from '../log/logApiAccess.js';
import { logOtlpAccess } from '../log/logOtlpAccess.js';
import { displayUrl, secretValuesOf } from '../log/SecretRedactor.js';
import { ServerOps } from '../ops/ServerOps.js';
import { createProgress } from '../progress/createProgress.js';
import { OPEN_MODE_PROJECT, TelltaleError, TelltaleErrorCode } from '@telltale/semconv';
import { AlertWorker } from '../roles/AlertWorker.js';
import { liveEventPublisher } from '../roles/liveEventRelay.js';
import { QuotaShare } from '../roles/quotaShare.js';
import { partsOf } from '../roles/serverRoles.js';

export interface RunningServer {
  server: Server;
  store: Store;
  /** The write path: spool, decoding workers, drainer (roles `all` and `ingest`). */
  collector: Collector | undefined;
  /** The one analytics facade the API asks. */
  analytics: Analytics;
  url: string;
  /** The OTLP/gRPC receiver's `host:port`, unless started with `grpcPort: 'off'`. */
  grpcAddress: string | undefined;
  /** `keys`: API keys required; `none`: open, everything is project `default`. */
  authMode: AuthMode;
  logger: Logger;
  /** Probes, metrics and the run facts catch-up. */
  ops: ServerOps;
  /** The `--metrics-port` listener's URL, when started with one. */
  metricsUrl: string | undefined;
  /** Stops accepting, writes everything accepted, closes storage. */
  close: () => Promise<void>;
}

/** Spans whose run facts the drain holds at most before writing them (see holdFacts below). */
const MAX_HELD_FACT_SPANS = 256_000;
/** The dashboard ships inside this package: apps/web builds into dist/web. */
const DEFAULT_WEB_DIR = fileURLToPath(new URL('../web', import.meta.url));

function connectionOf(config: StartConfig, logger: Logger): StoreConnection {
  // the ClickHouse client's own warnings and errors go to our log (JSON, secrets redacted), not to the console
  const onClientLog: ClientLogSink = (level, { module, message, args, err }) =>
    logger[level]({ module, args, err }, `clickhouse client: ${message}`);
  if (config.clickhouseUrl === undefined) return { kind: 'embedded', dataDir: config.dataDir, onClientLog };
  return {
    kind: 'remote',
    onClientLog,
    url: config.clickhouseUrl,
    ...(config.clickhouseUser === undefined ? {} : { username: config.clickhouseUser }),
    ...(config.clickhousePassword === undefined ? {} : { password: config.clickhousePassword }),
    ...(config.clickhouseCluster === undefined ? {} : { cluster: config.clickhouseCluster }),
  };
}

/** How long an API request waits for acknowledged spans to reach storage before it queries anyway. */
const API_CATCH_UP_MS = 2_000;
/** A run delete waits at most this long for the project's acknowledged spans to be stored (else it refuses, 503). */
const DELETE_CATCH_UP_MS = 10_000;

/** A spool backlog past one drain batch means ingest needs the CPU more than the run-facts finaliser. */
const BUSY_BACKLOG_SPANS = 20_000;

/** How long a stopping server lets requests under way answer before it cuts their connections. */
const SHUTDOWN_REQUESTS_MS = 5_000;

/**
 * How long a stopping server goes on finalising run facts; the next start's
 * reconcile does the rest (under heavy ingest the backlog once took 80 s).
 */
const SHUTDOWN_FINALISE_MS = 10_000;

/**
 * How often the runs that have settled (RunFacts: quiet for 10 s, or pending
 * for 30 s) are finalised in the background. Each finalising statement reads
 * the recent parts whatever the number of runs, since a live run's spans are
 * in every part since it began: measured (ad hoc) with 1,500 runs streaming
 * 5 spans every 5 s, 1.5k spans/s, the background took 0.49 cores every 1 s
 * for every pending run, 0.36 every 1 s for settled runs, 0.10 every 5 s
 * for settled runs. Queries finalise their project's pending runs first.
 */
const RUN_FACTS_INTERVAL_MS = 5_000;
/** An API query waits at most this long for a backlog of more than one chunk of pending runs (RunFacts.beforeRead). */
const RUN_FACTS_READ_WAIT_MS = 2_000;

/**
 * Fault tests only: `TELLTALE_FAILPOINT=crash-after-insert` kills the process
 * (SIGKILL, no cleanup) right after the first spool batch is inserted and
 * before the spool records that, the window where a retry could duplicate;
 * `TELLTALE_FAILPOINT=hold-inserts` only holds them. With
 * `TELLTALE_FAILPOINT_HOLD_FILE`, inserts wait until that file exists, so a
 * test decides what the spool holds when the batch is taken.
 */
function testFailpoint(logger: Logger): { afterInsert?: () => void; beforeInsert?: () => Promise<void> } {
  const point = process.env.TELLTALE_FAILPOINT;
  if (point !== 'crash-after-insert' && point !== 'hold-inserts') return {};
  const holdFile = process.env.TELLTALE_FAILPOINT_HOLD_FILE;
  return {
    ...(point === 'crash-after-insert'
      ? {
          afterInsert: () => {
            logger.warn('failpoint crash-after-insert: killing the process');
            process.kill(process.pid, 'SIGKILL');
          },
        }
      : {}),
    ...(holdFile === undefined
      ? {}
      : {
          beforeInsert: async () => {
            while (!existsSync(holdFile)) await new Promise((resolve) => setTimeout(resolve, 50));
          },
        }),
  };
}

/**
 * One process: OTLP/HTTP on `/v1/traces` (plain node:http, the hot path),
 * everything else through the express API app, on one port.
 */
export async function startServer(config: StartConfig): Promise<RunningServer> {
  // refuses a non-loopback address without keys before anything is opened
  const authMode = resolveAuthMode(config.host, config.auth);
  const parts = partsOf(config.role);
  const adminGate = new AdminGate(authMode, config.adminKey);
  const logger = createLogger({ level: config.logLevel, secrets: secretValuesOf(config) });
  const migrations = createProgress(logger, 'migrations', 'migrations');
  // a data directory in use is the likelier mistake (a second start): said first, with its own advice
  if (config.clickhouseUrl === undefined) Store.assertDataDirFree(config.dataDir);
  // one process per spool directory, settled before the store is touched: a process refused here migrates nothing
  const spoolLock = parts.ingest ? await lockSpoolDir(config.spoolDir ?? join(config.dataDir, 'spool')) : undefined;
  const store = await Store.open(connectionOf(config, logger), {
    // retention is the worker's (all: this process's) business
    ...(config.retentionDays === undefined || !parts.worker ? {} : { retentionDays: config.retentionDays }),
    ...(config.contentRetentionDays === undefined || !parts.worker
      ? {}
      : { contentRetentionDays: config.contentRetentionDays }),
    // the run facts catch up in the background once the server listens (ops.catchUp); /readyz says so meanwhile
    reconcile: false,
    onMigrationProgress: (done, total) => {
      migrations.update(done, total);
      if (done === total) migrations.finish();
    },
    runFacts: {
      onError: (err) => logger.warn({ err }, 'finalising run facts failed; the runs stay pending'),
      readWaitMs: RUN_FACTS_READ_WAIT_MS,
      orphanQuietMs: config.orphanQuietSeconds * 1000,
      // the facts of two drain batches are written together (RunFacts: each write costs about the same whatever its
      // size), of at most 256,000 spans (about 24 MiB of fact rows held) whatever the batches
      holdFacts: { spans: Math.min(2 * config.drainBatchSpans, MAX_HELD_FACT_SPANS) },
    },
    onQuery: logStoreQuery(logger),
  }).catch(async (err: unknown) => {
    await spoolLock?.release();
    throw err;
  });
  // the embedded engine's merges and parallel steps yield to the collector's threads: acknowledgements stay fast under load
  const enginePriority =
    config.clickhouseUrl === undefined && config.engineNice > 0
      ? new EngineThreadPriority({
          nice: config.engineNice,
          onUnavailable: (err) =>
            logger.info({ err: err.message }, 'engine threads keep the process priority (cannot lower them here)'),
        })
      : undefined;
  enginePriority?.start();
  // memory freed by Node's allocator, and the engine library's pages set-up touched once, go back to the system (glibc only)
  const libc = config.memoryTrimMs > 0 ? await loadLibc() : undefined;
  const memoryReturn =
    libc === undefined
      ? undefined
      : new MemoryReturn({
          libc,
          intervalMs: config.memoryTrimMs,
          onLibraryError: (err) =>
            logger.warn({ err: err.message }, "the engine library's unused pages stay in memory (cannot drop them)"),
        });
  const quotaShare = parts.split && parts.ingest ? new QuotaShare(store) : undefined;
  let keys: KeyCache | undefined;
  if (authMode === 'keys') {
    try {
      keys = await KeyCache.open({
        load: () => loadKeySnapshot(store),
        refreshMs: config.authRefreshSeconds * 1000,
        onError: (err) => logger.warn({ err }, 'reloading API keys failed; the keys loaded before stay in use'),
      });
    } catch (err) {
      await store.close();
      await spoolLock?.release();
      throw err;
    }
  }
  const auth =
    keys === undefined
      ? undefined
      : {
          authenticator: new Authenticator(keys),
          // split roles: each ingest process enforces its share of the quota (roles/quotaShare.ts)
          quota: new IngestQuota(
            quotaShare === undefined ? (p) => keys.quotaOf(p) : quotaShare.wrap((p) => keys.quotaOf(p)),
          ),
        };
  // the project of each API request, for its access line (open mode: everything is `default`)
  const apiProjects = new WeakMap<IncomingMessage, string>();
  const apiProjectOf = (req: IncomingMessage): string | undefined =>
    auth === undefined ? OPEN_MODE_PROJECT : apiProjects.get(req);
  let collector: Collector | undefined;
  const ops = new ServerOps({
    store,
    collector: () => collector,
    logger,
    authMode,
    metricsToken: config.metricsToken,
    quotaShare: quotaShare === undefined ? undefined : () => 1 / quotaShare.processes,
    memoryReturn: memoryReturn === undefined ? undefined : () => memoryReturn.stats,
  });
  const analytics = new Analytics(store);
  const policy = { allowPrivate: config.alertsAllowPrivate };
  checkPolicy(policy);
  let listeningUrl = '';
  const dashboardUrl = (): string => config.publicUrl ?? listeningUrl;
  const dispatcher = new AlertDispatcher({
    store,
    policy,
    retry: { baseDelayMs: config.alertsRetryBaseMs },
    onError: (err) => logger.warn({ err }, 'delivering alert notifications failed; they stay pending'),
    onAttempt: (outcome) => ops.metrics.notificationAttempt(outcome),
  });
  const evaluator = new AlertEvaluator({
    store,
    measure: (rule, nowMs) => measureRule(analytics, rule.projectId, rule, nowMs),
    dashboardUrl,
    onEnqueued: () => dispatcher.wake(),
    onError: (err, ruleId) => logger.warn({ err, ruleId }, 'evaluating an alert rule failed'),
    onEvaluated: (result) => ops.metrics.alertEvaluated(result),
  });
  const alertWorker = new AlertWorker({ store, evaluator, dispatcher, logger, split: parts.split });
  // split roles: an ingest process's live events reach the alert worker through storage
  const publisher = parts.split
    ? liveEventPublisher(store, (err) => logger.warn({ err }, 'storing live alert events failed; retried'))
    : undefined;
  // loops are reported while the run is still going: every any_loop rule of the project gets them
  const liveLoops = new LiveLoopDetector({
    ...DEFAULT_LOOP_THRESHOLDS,
    onEvent: (e) => {
      const raise = publisher === undefined ? (ev: LiveAlertEvent) => evaluator.raise(ev) : publisher.publish;
      void raise({
        projectId: e.projectId,
        kind: 'loop',
        groupKey: `run:${e.runId}`,
        status: e.status,
        value: e.count,
        atMs: e.atMs,
        labels: e.labels,
      });
    },
  });
  liveLoops.start();
  const logOtlp = logOtlpAccess(logger);
  const contentDrops = new ContentDrops();
  const failpoint = testFailpoint(logger);
  if (spoolLock !== undefined)
    collector = await Collector.open({
      spool: {
        dir: spoolLock.dir,
        lock: spoolLock,
        maxBytes: config.spoolMaxBytes,
        segmentBytes: config.spoolSegmentBytes,
      },
      storage: {
        insert: async (messages, runs, deduplicationToken, contents, facts) => {
          await failpoint.beforeInsert?.();
          await store.insertSpanBatches(messages, runs, { deduplicationToken, facts });
          await store.content.insertBatches(contents, { deduplicationToken: `${deduplicationToken}:content` });
        },
        ...(failpoint.afterInsert === undefined ? {} : { afterInsert: failpoint.afterInsert }),
        maxBatchSpans: config.drainBatchSpans,
        // the workers compute the facts of the runs a request holds whole: the SQL finaliser reads the others' spans back
        runFacts: true,
      },
      ...(config.ingestWorkers === undefined ? {} : { workers: config.ingestWorkers }),
      limits: {
        // a span older than the retention would only be dropped again
        spans: {
          ...DEFAULT_SPAN_LIMITS,
          ...(config.retentionDays === undefined ? {} : { maxAgeMs: config.retentionDays * 86_400_000 }),
          maxContentBytes: config.contentMaxBytes,
        },
        maxBodyBytes: config.maxBodyBytes,
      },
      policy:
        auth === undefined
          ? {}
          : {
              authenticate: (authorization) => auth.authenticator.projectOf(authorization, 'ingest'),
              admit: (projectId, spanCount) => auth.quota.admit(projectId, spanCount),
              contentStored: (projectId) => keys?.contentOf(projectId).stored ?? true,
            },
      observe: {
        // one observation per answered request: counters, the refusal's warning, the debug access line
        onDone: (done) => {
          ops.metrics.otlpDone(done);
          contentDrops.count(done);
          if (done.error !== undefined)
            logger.warn(
              { protocol: done.protocol, code: done.error.code, err: done.error.message },
              'OTLP request refused',
            );
          logOtlp(done);
        },
        onAccepted: (loops) => liveLoops.observe(loops),
        onInsertError: (err, attempt) => {
          ops.metrics.insertFailed();
          logger.warn({ err, attempt }, 'storing spooled spans failed; they stay in the spool and are retried');
        },
        onBatchStored: (spans, seconds) => ops.metrics.batchStored(spans, seconds),
        // the server keeps serving; the backlog shows in /readyz and the spool metrics
        onSpoolRefused: (err) =>
          logger.error(
            { foundVersion: err.found, expectedVersion: err.expected, spoolDir: err.dir, files: err.files },
            err.message,
          ),
      },
    }).catch(async (err: unknown) => {
      liveLoops.stop();
      keys?.stop();
      await store.close();
      throw err;
    });
  // finalise runs in the background, so queries rarely have to wait for it; not while the spool is behind
  // (split roles: each ingest process finalises the runs it stored; the worker catches up what a dead one left)
  if (collector !== undefined) {
    const c = collector;
    store.runFacts.start(RUN_FACTS_INTERVAL_MS, { busy: () => c.backlogSpans > BUSY_BACKLOG_SPANS });
  }
  quotaShare?.start();
  if (collector !== undefined && (collector.recovery.records > 0 || collector.recovery.tornBytes > 0))
    logger.info({ ...collector.recovery }, 'spool replayed: storing spans acknowledged before the last stop');
  const otlp = collector?.httpHandler();
  const alerts = new AlertService({ store, dispatcher, policy, dashboardUrl });
  const app = createApiApp({
    store,
    analytics,
    alerts,
    webDir: config.webDir ?? DEFAULT_WEB_DIR,
    onInternalError: (err) => logger.error({ err }, 'API request failed'),
    ...(auth === undefined
      ? {}
      : {
          authenticate: async (req) => {
            const project = await auth.authenticator.projectOf(req.headers.authorization, 'read');
            apiProjects.set(req, project);
            return project;
          },
        }),
    // read your writes: a query first lets the project's acknowledged spans reach storage (bounded wait)
    beforeRead: (projectId) => collector?.caughtUp(API_CATCH_UP_MS, projectId) ?? Promise.resolve(),
    // an admin change reloads the keys at once: a new key works, a revoked one stops, before the answer
    admin: {
      authorize: (req) => adminGate.check(req.headers.authorization),
      onChange: async () => keys?.refresh(),
      contentDroppedOf: (projectId) => contentDrops.of(projectId),
      storedUpToNow: (projectId) => collector?.caughtUp(DELETE_CATCH_UP_MS, projectId) ?? Promise.resolve(true),
    },
    ...(keys === undefined ? {} : { contentReadable: (projectId: string) => keys.contentOf(projectId).readable }),
    onApiRequest: (method, route, status, seconds) => ops.metrics.apiRequest(method, route, status, seconds),
  });
  // probes and metrics answer ahead of the API: no key, no wait for the spool
  const opsHandler = ops.mainHandler();

  // a stalled upload is cut off after requestTimeoutMs (408); connections are checked every second
  const server = createServer(
    {
      requestTimeout: config.requestTimeoutMs,
      headersTimeout: Math.min(10_000, config.requestTimeoutMs),
      connectionsCheckingInterval: 1_000,
    },
    (req, res) => {
      const path = req.url?.split('?', 1)[0];
      if (path === '/v1/traces' && otlp !== undefined) otlp(req, res);
      else if (!opsHandler(req, res, path ?? '')) {
        if (!parts.query) return notServedByRole(res, config.role);
        if (path?.startsWith('/api/') === true) logApiAccess(logger, req, res, apiProjectOf);
        app(req, res);
      }
    },
  );
  server.keepAliveTimeout = 5_000;

  await new Promise<void>((resolve, reject) => {
    const refuse = (err: Error): void =>
      reject(
        new TelltaleError({
          code: TelltaleErrorCode.LISTEN_FAILED,
          message: `cannot listen on ${config.host}:${config.port} (${err.message}); choose another --port`,
          cause: err,
        }),
      );
    server.once('error', refuse);
    server.listen(config.port, config.host, () => {
      server.off('error', refuse);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `http://${host}:${port}`;
  let grpc: OtlpGrpcServer | undefined;
  if (config.grpcPort !== 'off' && collector !== undefined) {
    try {
      grpc = await collector.startGrpc(config.host, config.grpcPort);
    } catch (err) {
      server.close();
      keys?.stop();
      await collector.close();
      await store.close();
      throw new TelltaleError({
        code: TelltaleErrorCode.LISTEN_FAILED,
        message: `cannot listen for OTLP/gRPC on ${host}:${config.grpcPort} (${(err as Error).message}); choose another --grpc-port, or 'off'`,
        cause: err,
      });
    }
  }
  const grpcAddress = grpc === undefined ? undefined : `${host}:${grpc.port}`;
  let metricsUrl: string | undefined;
  if (config.metricsPort !== undefined) {
    try {
      metricsUrl = await ops.listenMetrics(config.host, config.metricsPort);
    } catch (err) {
      server.close();
      await grpc?.close();
      keys?.stop();
      await collector?.close();
      await store.close();
      throw new TelltaleError({
        code: TelltaleErrorCode.LISTEN_FAILED,
        message: `cannot listen for metrics on ${host}:${config.metricsPort} (${(err as Error).message}); choose another --metrics-port`,
        cause: err,
      });
    }
  }
  listeningUrl = url;
  // the engine has set itself up by now: what that touched once can go
  memoryReturn?.start();
  // split roles: the leading worker catches up (AlertWorker), the others are ready at once
  if (parts.worker || !parts.split) ops.catchUp.start();
  else ops.catchUp.skip();
  // alerts start once the server listens: evaluation of due rules, then delivery of the outbox (pending notifications of before a restart included)
  if (parts.worker) await alertWorker.start();
  logger.info(
    {
      url,
      grpc: grpcAddress ?? 'off',
      ...(metricsUrl === undefined ? {} : { metrics: metricsUrl }),
      storage: config.clickhouseUrl === undefined ? config.dataDir : displayUrl(config.clickhouseUrl),
      auth: authMode,
      role: config.role,
      adminApi: adminGate.enabled,
    },
    'telltale listening',
  );
  if (authMode === 'none') logger.info('open mode: no API keys, every request is project default (loopback only)');

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // requests under way get SHUTDOWN_REQUESTS_MS to answer; then their connections are cut, so a stop is bounded
      const cut = setTimeout(() => server.closeAllConnections(), SHUTDOWN_REQUESTS_MS);
      await Promise.all([stopped, grpc?.close()]);
      clearTimeout(cut);
      liveLoops.stop();
      await ops.close();
      await alertWorker.stop();
      await publisher?.stop();
      await quotaShare?.stop();
      keys?.stop();
      await collector?.close();
      await store.close({ finaliseWithinMs: SHUTDOWN_FINALISE_MS });
      enginePriority?.stop();
      memoryReturn?.stop();
      logger.info('telltale stopped');
    })();
    return closing;
  };
  return { server, store, collector, analytics, url, grpcAddress, authMode, logger, ops, metricsUrl, close };
}

/** A path this role does not serve (e.g. the API on an ingest process): 404 with the role named. */
function notServedByRole(res: ServerResponse, role: string): void {
  res.writeHead(404, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { code: 'NOT_FOUND', message: `not served by a --role ${role} process` } }));
}
