import type { AlertDispatcher, AlertEvaluator } from '@telltale/alerts';
import { PeriodicCatchUp, type Lease, type Store } from '@telltale/store';
import type { Logger } from 'pino';
import { LiveEventPoller } from './liveEventRelay.js';

/** A leader that stops renewing loses the lease after this; a standby takes over within it plus one renewal. */
export const ALERT_LEASE_TTL_MS = 15_000;
export const ALERT_LEASE_RENEW_MS = 5_000;
/**
 * How often the leader looks for runs whose facts are missing or stale
 * (spans another process stored and did not finalise): at every run when it
 * takes the lead and every hour, otherwise at those with spans ingested
 * since its previous look (PeriodicCatchUp).
 */
export const CATCH_UP_EVERY_MS = 15_000;

/**
 * The worker's background work: alert evaluation and delivery, live alert
 * events, and the run-facts catch-up. In one process (`--role all`) it just
 * runs. With split roles the workers are candidates for the `alert-worker`
 * lease in storage and only the holder runs it; when the holder dies or
 * stops, the next takes over and resumes from storage (alert states, the
 * outbox of pending notifications, recent live events).
 */
export class AlertWorker {
  private readonly lease: Lease | undefined;
  private readonly poller: LiveEventPoller | undefined;
  private catchUpTimer: NodeJS.Timeout | undefined;
  private catchingUp: Promise<unknown> | undefined;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly opts: {
      store: Store;
      evaluator: AlertEvaluator;
      dispatcher: AlertDispatcher;
      logger: Logger;
      split: boolean;
    },
  ) {
    if (!opts.split) return;
    this.poller = new LiveEventPoller(opts.store, opts.evaluator, (err) =>
      opts.logger.warn({ err }, 'reading live alert events failed; retried'),
    );
    this.lease = opts.store.lease({
      name: 'alert-worker',
      role: 'worker',
      ttlMs: ALERT_LEASE_TTL_MS,
      renewMs: ALERT_LEASE_RENEW_MS,
      onAcquired: () => this.serial(() => this.lead()),
      onLost: () => this.serial(() => this.follow()),
      onError: (err) => opts.logger.warn({ err }, 'renewing the alert-worker lease failed'),
    });
  }

  /** Whether this process runs the alerts now. */
  get leading(): boolean {
    return this.lease === undefined || this.lease.isHeld;
  }

  async start(): Promise<void> {
    if (this.lease === undefined) {
      await this.opts.evaluator.start();
      this.opts.dispatcher.start();
      return;
    }
    this.lease.start();
  }

  async stop(): Promise<void> {
    if (this.lease === undefined) {
      await this.opts.evaluator.stop();
      await this.opts.dispatcher.stop();
      return;
    }
    await this.lease.stop();
    await this.chain;
  }

  private serial(work: () => Promise<void>): Promise<void> {
    this.chain = this.chain.then(work).catch((err: unknown) => this.opts.logger.warn({ err }, 'alert worker'));
    return this.chain;
  }

  private async lead(): Promise<void> {
    this.opts.logger.info(
      { owner: this.lease?.owner },
      'alert worker: leading (alerts, live events, run facts catch-up)',
    );
    await this.opts.evaluator.start();
    this.opts.dispatcher.start();
    this.poller?.start();
    // a new leader's first scan looks at every run
    const periodic = new PeriodicCatchUp(this.opts.store.runFacts);
    const catchUp = (): void => {
      this.catchingUp ??= periodic
        .scan()
        .then(({ full, stale }) => {
          // runs no ingest process finalised: a process killed, or spans that came another way
          if (stale > 0)
            this.opts.logger.info(
              { stale, scan: full ? 'every run' : 'runs ingested since the last scan' },
              'run facts catch-up: finalised runs no ingest process had',
            );
        })
        .catch((err: unknown) => this.opts.logger.warn({ err }, 'run facts catch-up failed; retried'))
        .finally(() => (this.catchingUp = undefined));
    };
    this.catchUpTimer = setInterval(catchUp, CATCH_UP_EVERY_MS);
  }

  private async follow(): Promise<void> {
    this.opts.logger.info({ owner: this.lease?.owner }, 'alert worker: standing by');
    clearInterval(this.catchUpTimer);
    await this.poller?.stop();
    await this.opts.evaluator.stop();
    await this.opts.dispatcher.stop();
    await this.catchingUp;
  }
}
