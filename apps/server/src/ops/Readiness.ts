import type { CatchUpState } from './RunFactsCatchUp.js';

export interface ReadinessSources {
  /** Resolves true when the schema is current; rejects when storage is unreachable. */
  schemaCurrent: () => Promise<boolean>;
  spool: () => { usedBytes: number; capacityBytes: number };
  catchUp: () => CatchUpState;
  /** Fraction of the spool cap past which the server is not ready (default 0.9). */
  spoolHighWater?: number;
  /** How long the storage check may take (default 2 s). */
  storageTimeoutMs?: number;
  /** How long a storage check's result is reused (default 1 s): probes stay cheap. */
  storageCacheMs?: number;
  /** Milliseconds now (tests). */
  clock?: () => number;
}

export interface ReadinessReport {
  ready: boolean;
  /** Why not, one line each; empty when ready. */
  reasons: string[];
  checks: {
    storage: 'ok' | 'unreachable';
    migrations: 'applied' | 'pending' | 'unknown';
    spool: { usedBytes: number; maxBytes: number; highWaterBytes: number };
    runFacts: CatchUpState;
  };
}

/**
 * What `/readyz` answers: storage reachable with the schema current, the
 * spool under its high-water mark, the run facts caught up after start.
 * Says nothing of projects.
 */
export class Readiness {
  private cached:
    { atMs: number; result: Promise<{ reachable: boolean; current: boolean; error?: string }> } | undefined;
  private readonly clock: () => number;

  constructor(private readonly sources: ReadinessSources) {
    this.clock = sources.clock ?? (() => performance.now());
  }

  async check(): Promise<ReadinessReport> {
    const storage = await this.storage();
    const spool = this.sources.spool();
    const highWaterBytes = Math.floor(spool.capacityBytes * (this.sources.spoolHighWater ?? 0.9));
    const runFacts = this.sources.catchUp();
    const reasons: string[] = [];
    if (!storage.reachable) reasons.push(`storage unreachable: ${storage.error ?? 'no answer'}`);
    else if (!storage.current) reasons.push('migrations not applied: the storage schema is behind this version');
    // capacity 0: no spool in this process (a query or worker role)
    if (spool.capacityBytes > 0 && spool.usedBytes >= highWaterBytes) {
      reasons.push(
        `spool above its high-water mark: ${spool.usedBytes} of ${spool.capacityBytes} bytes used (storage is behind or unreachable)`,
      );
    }
    if (runFacts.state !== 'caught_up') {
      const where = runFacts.total === 0 ? 'looking for stale runs' : `${runFacts.done}/${runFacts.total} runs`;
      reasons.push(
        `catching up run facts: ${where}${runFacts.lastError === undefined ? '' : ` (retrying: ${runFacts.lastError})`}`,
      );
    }
    return {
      ready: reasons.length === 0,
      reasons,
      checks: {
        storage: storage.reachable ? 'ok' : 'unreachable',
        migrations: !storage.reachable ? 'unknown' : storage.current ? 'applied' : 'pending',
        spool: { usedBytes: spool.usedBytes, maxBytes: spool.capacityBytes, highWaterBytes },
        runFacts,
      },
    };
  }

  private storage(): Promise<{ reachable: boolean; current: boolean; error?: string }> {
    const now = this.clock();
    if (this.cached !== undefined && now - this.cached.atMs < (this.sources.storageCacheMs ?? 1_000))
      return this.cached.result;
    const timeoutMs = this.sources.storageTimeoutMs ?? 2_000;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    const result = Promise.race([this.sources.schemaCurrent(), timeout])
      .then(
        (current) => ({ reachable: true, current }),
        (err: unknown) => ({
          reachable: false,
          current: false,
          error: err instanceof Error ? err.message : String(err),
        }),
      )
      .finally(() => clearTimeout(timer));
    this.cached = { atMs: now, result };
    return result;
  }
}
