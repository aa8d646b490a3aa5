import { RepeatingTask } from '@telltale/semconv';
import type { Store, StoreRows } from '@telltale/store';
import { postWebhook } from './postWebhook.js';
import { DEFAULT_RETRY, decide, type AttemptOutcome, type RetryOptions } from './retryPolicy.js';
import { signWebhook } from './signWebhook.js';
import type { Resolver, SsrfPolicy } from './ssrfGuard.js';

export interface AlertDispatcherOptions {
  store: Store;
  policy: SsrfPolicy;
  resolve?: Resolver;
  retry?: Partial<RetryOptions>;
  /** One attempt's time limit (default 10 s). */
  timeoutMs?: number;
  /** How often the outbox is polled when nothing wakes the dispatcher (default 1 s). */
  pollMs?: number;
  /** Attempts in flight at once (default 8). */
  concurrency?: number;
  clock?: () => number;
  onError?: (err: unknown) => void;
  /** What each recorded attempt came to (operators' counters). */
  onAttempt?: (outcome: AttemptOutcome['outcome']) => void;
}

/**
 * Sends what the outbox holds: each due `pending` notification is signed
 * (Standard Webhooks, its stable id, a fresh timestamp), POSTed through the
 * SSRF guard, its attempt logged, and its row rewritten: delivered, retried
 * later with backoff, or failed. A 410 disables the destination. A crash
 * between a 2xx and the `delivered` row resends once with the same
 * `webhook-id` (receivers deduplicate on it); a delivered row is never sent
 * again.
 */
export class AlertDispatcher {
  private readonly retry: RetryOptions;
  private readonly clock: () => number;
  private readonly inFlight = new Set<string>();
  private readonly loop: RepeatingTask;

  constructor(private readonly opts: AlertDispatcherOptions) {
    this.retry = { ...DEFAULT_RETRY, ...opts.retry };
    this.clock = opts.clock ?? Date.now;
    this.loop = new RepeatingTask({
      run: () => this.deliverDue(),
      everyMs: opts.pollMs ?? 1000,
      onError: (err) => opts.onError?.(err),
    });
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Something was enqueued: look at the outbox now. */
  wake(): void {
    this.loop.wake();
  }

  /** Sends every due notification once (one attempt each); returns how many were attempted. */
  async deliverDue(): Promise<number> {
    const due = (await this.opts.store.alerts.listDueNotifications(this.clock(), 200)).filter(
      (n) => !this.inFlight.has(n.notificationId),
    );
    const width = this.opts.concurrency ?? 8;
    for (let i = 0; i < due.length; i += width) await Promise.all(due.slice(i, i + width).map((n) => this.attempt(n)));
    return due.length;
  }

  /** One attempt of one notification, logged and recorded; what came of it. */
  async attempt(
    n: StoreRows.StoredNotification,
  ): Promise<{ outcome: AttemptOutcome; attempt: StoreRows.DeliveryAttempt }> {
    this.inFlight.add(n.notificationId);
    try {
      const sent = await this.send(n);
      this.opts.onAttempt?.(sent.outcome.outcome);
      return sent;
    } finally {
      this.inFlight.delete(n.notificationId);
    }
  }

  private async send(
    n: StoreRows.StoredNotification,
  ): Promise<{ outcome: AttemptOutcome; attempt: StoreRows.DeliveryAttempt }> {
    const store = this.opts.store;
    const destination = await store.alerts.getAlertDestination(n.projectId, n.destinationId);
    const number = n.attempts + 1;
    const started = this.clock();
    let outcome: AttemptOutcome;
    let statusCode: number | undefined;
    let url = destination?.url ?? '';
    if (destination === undefined) outcome = { outcome: 'failed', reason: 'the destination was deleted' };
    else if (destination.disabledAtMs !== undefined)
      outcome = { outcome: 'failed', reason: `the destination is disabled: ${destination.disabledReason}` };
    else {
      const headers = signWebhook(n.notificationId, n.body, destination.secrets, new Date(started));
      const result = await postWebhook(destination.url, n.body, {
        headers,
        timeoutMs: this.opts.timeoutMs ?? 10_000,
        policy: this.opts.policy,
        ...(this.opts.resolve === undefined ? {} : { resolve: this.opts.resolve }),
      });
      url = result.url;
      if (result.kind === 'response') statusCode = result.status;
      outcome = decide(result, number, this.retry, this.clock());
    }
    const now = this.clock();
    const attempt: StoreRows.DeliveryAttempt = {
      projectId: n.projectId,
      notificationId: n.notificationId,
      attempt: number,
      atMs: started,
      url,
      statusCode,
      outcome: outcome.outcome,
      error: outcome.outcome === 'delivered' ? '' : outcome.reason,
      durationMs: now - started,
    };
    await store.alerts.appendDeliveryAttempts([attempt]);
    await store.alerts.putNotifications([
      {
        ...n,
        attempts: number,
        deliveryState:
          outcome.outcome === 'delivered' ? 'delivered' : outcome.outcome === 'retry' ? 'pending' : 'failed',
        nextAttemptAtMs: outcome.outcome === 'retry' ? now + outcome.delayMs : n.nextAttemptAtMs,
        deliveredAtMs: outcome.outcome === 'delivered' ? now : undefined,
        lastError: attempt.error,
      },
    ]);
    if (outcome.outcome === 'disabled' && destination !== undefined) {
      await store.alerts.putAlertDestination({
        ...destination,
        disabledAtMs: now,
        disabledReason: outcome.reason,
        updatedAtMs: now,
      });
    }
    return { outcome, attempt };
  }
}
