import type { RunFacts } from './RunFacts.js';

/**
 * How far before the previous scan's start the next one looks: an insert
 * takes its ingest time when it starts and is seen once it ends (a drain
 * batch takes seconds), and the servers of a cluster each stamp by their
 * own clock.
 */
export const DEFAULT_CATCH_UP_MARGIN_MS = 60_000;

/**
 * How often a scan looks at every run again: a replica that lagged longer
 * than the margin shows spans whose ingest time is older than the scans
 * that missed them.
 */
export const DEFAULT_FULL_CATCH_UP_EVERY_MS = 3_600_000;

export interface PeriodicCatchUpOptions {
  /** Default DEFAULT_CATCH_UP_MARGIN_MS. */
  marginMs?: number;
  /** Default DEFAULT_FULL_CATCH_UP_EVERY_MS. */
  fullEveryMs?: number;
  /** Milliseconds now, for the full scans' schedule (default Date.now; tests pass their own). */
  clock?: () => number;
}

/** What one scan did. */
export interface CatchUpScan {
  /** Every run stored (true), or those with spans ingested since the previous scan began, less the margin. */
  full: boolean;
  /** Runs found stale and finalised. */
  stale: number;
}

/**
 * The run facts catch-up of a process that repeats it (split roles: the
 * worker that leads finds the runs other processes stored and did not
 * finalise). The first scan and one every `fullEveryMs` look at every run;
 * the others only at the runs with spans ingested since the previous scan
 * began, less `marginMs`, so their cost follows what arrived since instead
 * of everything stored. A scan that fails moves nothing on: the next one
 * covers its span of time too.
 */
export class PeriodicCatchUp {
  /** Where the next scan starts looking (epoch ms, storage clock); undefined: at every run. */
  private since: number | undefined;
  private lastFullAt = Number.NEGATIVE_INFINITY;
  private readonly marginMs: number;
  private readonly fullEveryMs: number;
  private readonly clock: () => number;

  constructor(
    private readonly runFacts: Pick<RunFacts, 'catchUp' | 'storageNowMs'>,
    opts: PeriodicCatchUpOptions = {},
  ) {
    this.marginMs = opts.marginMs ?? DEFAULT_CATCH_UP_MARGIN_MS;
    this.fullEveryMs = opts.fullEveryMs ?? DEFAULT_FULL_CATCH_UP_EVERY_MS;
    this.clock = opts.clock ?? Date.now;
  }

  /** One scan, and the finalising of the stale runs it found; rejects when the storage fails. */
  async scan(): Promise<CatchUpScan> {
    const startedAt = this.clock();
    const since = startedAt - this.lastFullAt >= this.fullEveryMs ? undefined : this.since;
    const full = since === undefined;
    const storageStart = await this.runFacts.storageNowMs();
    const stale = await this.runFacts.catchUp(full ? {} : { ingestedSinceMs: since });
    this.since = storageStart - this.marginMs;
    if (full) this.lastFullAt = startedAt;
    return { full, stale };
  }
}
