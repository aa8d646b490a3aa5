import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Collector } from '@telltale/collector';
import type { Store } from '@telltale/store';
import type { Logger } from 'pino';
import type { AuthMode } from '../auth/resolveAuthMode.js';
import type { MemoryReturnStats } from '../memory/MemoryReturn.js';
import { TelltaleMetrics } from '../metrics/TelltaleMetrics.js';
import { createProgress } from '../progress/createProgress.js';
import { EventLoopLag } from './EventLoopLag.js';
import { createOpsHandler, type MetricsAccess } from './opsHandler.js';
import { Readiness } from './Readiness.js';
import { RunFactsCatchUp } from './RunFactsCatchUp.js';

export interface ServerOpsOptions {
  store: Store;
  /** The collector, once opened (the gauges and readiness read it on demand). */
  collector: () => Collector | undefined;
  logger: Logger;
  authMode: AuthMode;
  metricsToken?: string | undefined;
  /** Split roles, ingest processes: the share of each quota this process enforces (a gauge). */
  quotaShare?: (() => number) | undefined;
  /** What has been handed back to the system (absent: nothing is, here). */
  memoryReturn?: (() => MemoryReturnStats) | undefined;
}

/**
 * What operators see of one server: the probes (`/healthz`, `/readyz`), the
 * Prometheus metrics (`/metrics`, and the `--metrics-port` listener), and the
 * run facts catch-up after start, with its progress.
 */
export class ServerOps {
  readonly metrics: TelltaleMetrics;
  readonly catchUp: RunFactsCatchUp;
  private readonly lag = new EventLoopLag();
  private readonly readiness: Readiness;
  private readonly startedAtMs = Date.now();
  private metricsServer: Server | undefined;

  constructor(private readonly opts: ServerOpsOptions) {
    const { store, collector } = opts;
    const spool = (): {
      usedBytes: number;
      capacityBytes: number;
      records: number;
      backlogSpans: number;
      oldestAtMs: number | undefined;
    } => {
      const s = collector()?.spool;
      if (s === undefined)
        return { usedBytes: 0, capacityBytes: 0, records: 0, backlogSpans: 0, oldestAtMs: undefined };
      return {
        usedBytes: s.usedBytes,
        capacityBytes: s.capacityBytes,
        records: s.pendingRecords,
        backlogSpans: s.pendingWeight,
        oldestAtMs: s.oldestPendingAtMs,
      };
    };
    this.catchUp = new RunFactsCatchUp(store.runFacts, catchUpReporting(opts.logger));
    this.metrics = new TelltaleMetrics({
      spool,
      quotaShare: opts.quotaShare,
      memoryReturn: opts.memoryReturn,
      ingestWorkerHeapBytes: () => collector()?.ingestWorkerHeapBytes ?? 0,
      engineMemory: store.embedded ? () => store.engineMemory() : undefined,
      runFacts: () => ({
        pendingRuns: store.runFacts.pendingRuns(),
        oldestPendingSinceMs: store.runFacts.oldestPendingSince(),
        catchUpRemainingRuns: store.runFacts.staleRuns(),
        finalised: store.runFacts.finalised,
      }),
    });
    this.readiness = new Readiness({
      schemaCurrent: () => store.schemaCurrent(),
      spool,
      catchUp: () => this.catchUp.state,
    });
  }

  /** The main port's handler for the probes and `/metrics` (false: not one of these paths). */
  mainHandler(): (req: IncomingMessage, res: ServerResponse, path: string) => boolean {
    const token = this.opts.metricsToken;
    const access: MetricsAccess = this.opts.authMode === 'none' ? 'open' : token === undefined ? 'off' : { token };
    return createOpsHandler({
      readiness: this.readiness,
      lag: this.lag,
      metrics: this.metrics,
      metricsAccess: access,
      startedAtMs: this.startedAtMs,
    });
  }

  /** Starts the `--metrics-port` listener (no auth); returns its URL. */
  async listenMetrics(host: string, port: number): Promise<string> {
    const handle = createOpsHandler({
      readiness: this.readiness,
      lag: this.lag,
      metrics: this.metrics,
      metricsAccess: 'open',
      startedAtMs: this.startedAtMs,
    });
    const server = createServer((req, res) => {
      if (!handle(req, res, req.url?.split('?', 1)[0] ?? ''))
        res.writeHead(404, { 'content-type': 'text/plain' }).end('this port serves /metrics, /healthz and /readyz\n');
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.metricsServer = server;
    const bound = (server.address() as AddressInfo).port;
    return `http://${host.includes(':') ? `[${host}]` : host}:${bound}`;
  }

  async close(): Promise<void> {
    this.catchUp.stop();
    this.lag.stop();
    const server = this.metricsServer;
    if (server !== undefined) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    }
  }
}

function catchUpReporting(logger: Logger): ConstructorParameters<typeof RunFactsCatchUp>[1] {
  let progress: ReturnType<typeof createProgress> | undefined;
  return {
    onProgress: (done, total) => {
      if (total === 0) return;
      progress ??= createProgress(logger, 'run facts catch-up', 'runs');
      progress.update(done, total);
    },
    onFinished: (state) => {
      progress?.finish();
      if (state.state === 'caught_up') logger.info({ runs: state.total }, 'run facts caught up');
    },
    onError: (err) => logger.warn({ err }, 'catching up run facts failed; retrying'),
  };
}
