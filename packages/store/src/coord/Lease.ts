import { RepeatingTask, TelltaleError, TelltaleErrorCode } from '@telltale/semconv';
import { randomUUID } from 'node:crypto';
import type { ClickHouseClient } from '@clickhouse/client';
import { liveCandidates, writeCandidacy, type LeaseCandidate } from './leaseSql.js';

export interface LeaseOptions {
  /** The lease, e.g. `alert-worker`. */
  name: string;
  /** A candidacy not renewed for this long lapses (storage clock); default 15 s. */
  ttlMs?: number;
  /** How often a candidate renews and looks who holds it; default 5 s. */
  renewMs?: number;
  /** A candidate that sees itself first waits this long and looks again before it takes the lease (inserts racing its first look); default 1 s. */
  settleMs?: number;
  /** Shown in the registry (`ingest`, `worker`, …). */
  role?: string;
  /** This candidate (default: a random id). */
  owner?: string;
  onAcquired?: () => void | Promise<void>;
  onLost?: () => void | Promise<void>;
  onError?: (err: unknown) => void;
}

export const DEFAULT_LEASE_TTL_MS = 15_000;
export const DEFAULT_LEASE_RENEW_MS = 5_000;
const DEFAULT_SETTLE_MS = 1_000;

/**
 * One candidate for a lease kept in storage (see leaseSql.ts): it renews its
 * candidacy every `renewMs` and holds the lease while it is the earliest
 * live candidate. A holder whose renewals fail steps down once its last
 * confirmed renewal is `ttlMs - renewMs` old, before others can take over;
 * when a holder dies, the next candidate takes over within `ttlMs` plus one
 * renewal. Also a process registry: `members()` lists the live candidates.
 */
export class Lease {
  readonly owner: string;
  readonly ttlMs: number;
  readonly renewMs: number;
  private readonly settleMs: number;
  private readonly termStartedMs = Date.now();
  private readonly renewal: RepeatingTask;
  private stopped = true;
  private held = false;
  private lastConfirmedMs = 0;
  private members_: LeaseCandidate[] = [];

  constructor(
    private readonly client: ClickHouseClient,
    private readonly opts: LeaseOptions,
  ) {
    this.owner = opts.owner ?? randomUUID();
    this.ttlMs = opts.ttlMs ?? DEFAULT_LEASE_TTL_MS;
    this.renewMs = opts.renewMs ?? DEFAULT_LEASE_RENEW_MS;
    this.settleMs = opts.settleMs ?? DEFAULT_SETTLE_MS;
    this.renewal = new RepeatingTask({
      run: () => this.round(),
      everyMs: this.renewMs,
      onError: (err) => this.opts.onError?.(err),
    });
  }

  get isHeld(): boolean {
    return this.held;
  }

  /** The live candidates at the last look, holder first. */
  members(): readonly LeaseCandidate[] {
    return this.members_;
  }

  /** Starts renewing in the background (first look now). */
  start(): void {
    this.stopped = false;
    this.renewal.start();
  }

  /** Stops renewing, steps down (onLost) and withdraws the candidacy so another takes over at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.renewal.stop();
    await this.setHeld(false);
    await this.write(0).catch(() => undefined);
  }

  /** Waits until this candidate holds the lease (bounded by `timeoutMs`), renewing meanwhile; throws on timeout. */
  async acquire(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    this.stopped = false;
    for (;;) {
      await this.round();
      if (this.held) {
        if (!this.stopped) this.renewal.start(this.renewMs);
        return;
      }
      if (Date.now() > deadline) {
        this.stopped = true;
        throw new TelltaleError({
          code: TelltaleErrorCode.UNAVAILABLE,
          message: `lease ${this.opts.name} not acquired in ${timeoutMs} ms (held by ${this.members_[0]?.owner})`,
        });
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(500, this.renewMs)));
    }
  }

  private write(ttlMs: number): Promise<void> {
    return writeCandidacy(this.client, {
      name: this.opts.name,
      owner: this.owner,
      role: this.opts.role ?? '',
      termStartedMs: this.termStartedMs,
      ttlMs,
    });
  }

  private async look(): Promise<boolean> {
    this.members_ = await liveCandidates(this.client, this.opts.name);
    return this.members_[0]?.owner === this.owner;
  }

  /** One renewal: write, look, and (on a first win) settle and look again. */
  private async round(): Promise<void> {
    const started = Date.now();
    try {
      await this.write(this.ttlMs);
      let first = await this.look();
      if (first && !this.held && this.settleMs > 0) {
        await new Promise((resolve) => setTimeout(resolve, this.settleMs));
        first = await this.look();
      }
      this.lastConfirmedMs = started;
      await this.setHeld(first && !this.stopped);
    } catch (err) {
      // storage unreachable: keep the lease only while nobody else can have taken it
      if (this.held && Date.now() - this.lastConfirmedMs > this.ttlMs - this.renewMs) await this.setHeld(false);
      throw err;
    }
  }

  private async setHeld(held: boolean): Promise<void> {
    if (held === this.held) return;
    this.held = held;
    await (held ? this.opts.onAcquired?.() : this.opts.onLost?.());
  }
}
