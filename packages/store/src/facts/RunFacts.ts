import type { ClickHouseClient } from '@clickhouse/client';
import { EMPTY_PRICE_TABLE } from '../analytics/AnalyticsFilter.js';
import { filterParams } from '../analytics/sqlParts.js';
import { DEFAULT_LOOP_THRESHOLDS } from '../analytics/loopTypes.js';
import type { SpanRecord } from '../spans/SpanRecord.js';
import { FINALISE_RUN_FACTS_SQL, FINALISE_RUN_STEPS_SQL, FINALISE_STEP_FACTS_SQL, STALE_RUNS_SQL } from './finaliseSql.js';
import { registerRunFacts } from './useRunFacts.js';

/** Runs finalised per statement: a bounded `IN` set, and a few hundred ms of work. */
const DEFAULT_CHUNK_RUNS = 2_000;
/** The finaliser reads a run's spans whenever they started (DateTime64(9) ends in 2262). */
const ALL_TIME = { fromUnixNano: 0n, toUnixNano: 7_258_118_400n * 1_000_000_000n };

export interface RunFactsOptions {
  /** Runs per finalising statement (default 2,000). */
  chunkRuns?: number;
  /** Where background failures go (a timer has no caller to reject); default: ignored, the runs stay pending and are retried. */
  onError?: (err: unknown) => void;
  /**
   * How long a query waits for its project's pending runs when they are more
   * than one chunk (heavy ingest): past it, the query reads the facts
   * finalised so far while the flush goes on. Default: no limit, every query
   * reads every run its process stored.
   */
  readWaitMs?: number;
}

/**
 * Keeps the run facts (migration 0003) up to date: every run that received
 * spans through this process is pending until finalised; `flush` finalises
 * the pending runs of a project (queries call it first, so a process reads
 * its own writes), a timer does it in the background, and `reconcile` catches
 * up after a restart, or with spans written by other processes, by comparing
 * span counts and ingest times with what the facts saw.
 *
 * Finalising a run twice is harmless (the newer row wins), so a run is taken
 * off the pending set before its statement runs and put back if it fails.
 * Step facts and run steps are written before run facts: a run row is the
 * commit mark that `reconcile` checks.
 */
export class RunFacts {
  private readonly pending = new Map<string, Set<string>>();
  private chain: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private readonly chunkRuns: number;
  private readonly onError: (err: unknown) => void;
  private readonly readWaitMs: number | undefined;
  /** Runs taken off `pending` by a flush under way and not yet written. */
  private finalising = 0;
  /** While a time-limited stop runs: no chunk of any flush starts after it. */
  private stopBy: number | undefined;

  constructor(
    private readonly client: ClickHouseClient,
    opts: RunFactsOptions = {},
  ) {
    this.chunkRuns = opts.chunkRuns ?? DEFAULT_CHUNK_RUNS;
    this.onError = opts.onError ?? (() => undefined);
    this.readWaitMs = opts.readWaitMs;
    registerRunFacts(client, this);
  }

  /** Marks the runs of stored spans as pending. */
  markSpans(spans: readonly SpanRecord[]): void {
    for (const s of spans) this.mark(s.projectId, s.runId);
  }

  mark(projectId: string, runId: string): void {
    let runs = this.pending.get(projectId);
    if (runs === undefined) this.pending.set(projectId, (runs = new Set()));
    runs.add(runId);
  }

  /** Runs waiting to be finalised (all projects). */
  pendingRuns(): number {
    let n = 0;
    for (const runs of this.pending.values()) n += runs.size;
    return n;
  }

  /**
   * Finalises the pending runs of `projectId` (of every project when absent),
   * after any finalisation already under way; resolves once their facts are
   * written, rejects when the storage fails (the runs stay pending).
   */
  flush(projectId?: string): Promise<void> {
    const next = this.chain.then(() => this.finalisePending(projectId));
    this.chain = next.catch(() => undefined);
    return next;
  }

  /**
   * What a query does before it reads the facts of `projectId`: finalises the
   * project's pending runs. A backlog of at most one chunk is always waited
   * for (the query reads every run its process stored); a larger one — heavy
   * ingest, the background flush deferred — is waited for at most
   * `readWaitMs`, then the query reads what is finalised while the flush goes
   * on: measured under 60k spans/s of ingest, queries that waited for the
   * whole backlog took 4.6, 10.7 and 24.9 s, each backlog larger than the last.
   */
  async beforeRead(projectId: string): Promise<void> {
    // a flush under way (the background's) comes first in the chain: its runs count as backlog too
    const backlog = (this.pending.get(projectId)?.size ?? 0) + this.finalising;
    const flushing = this.flush(projectId);
    if (this.readWaitMs === undefined || backlog <= this.chunkRuns) return flushing;
    flushing.catch(() => undefined); // if the wait ends first, a failure is the background's (the runs stay pending)
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.readWaitMs);
    });
    try {
      await Promise.race([flushing, waited]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Finalises every run whose facts are missing or stale; returns how many. */
  async reconcile(): Promise<number> {
    const result = await this.client.query({ query: STALE_RUNS_SQL, format: 'JSONEachRow' });
    const rows = await result.json<{ project_id: string; run_id: string }>();
    for (const r of rows) this.mark(r.project_id, r.run_id);
    await this.flush();
    return rows.length;
  }

  /**
   * Flushes every `intervalMs` in the background until `stop`. While `busy()`
   * says ingest needs the CPU, ticks are skipped, for at most `maxDeferMs`
   * (default 30 s) in a row: finalising is work that waits, and queries
   * still finalise their project's pending runs before they read.
   */
  start(intervalMs: number, opts: { busy?: () => boolean; maxDeferMs?: number } = {}): void {
    if (this.timer !== undefined) return;
    const maxDeferMs = opts.maxDeferMs ?? 30_000;
    let lastFlush = Date.now();
    this.timer = setInterval(() => {
      if (this.pending.size === 0) return;
      if (opts.busy?.() === true && Date.now() - lastFlush < maxDeferMs) return;
      lastFlush = Date.now();
      this.flush().catch(this.onError);
    }, intervalMs);
    this.timer.unref();
  }

  /**
   * Stops the timer and finalises what is pending. With `withinMs`, no chunk
   * starts after that long (a chunk under way finishes): what is left stays
   * pending, and the next open's `reconcile` finalises it — so a process
   * stopping under heavy ingest does not spend a minute finalising first.
   */
  async stop(withinMs?: number): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    // the limit holds for a flush already under way (a background burst) as well; that one ends before ours
    if (withinMs !== undefined) this.stopBy = Date.now() + withinMs;
    try {
      await this.flush();
    } finally {
      this.stopBy = undefined;
    }
  }

  /** Finalises the pending runs of a project (all projects when undefined); no chunk starts after `stopBy`. */
  private async finalisePending(projectId: string | undefined): Promise<void> {
    const projects = projectId === undefined ? [...this.pending.keys()] : [projectId];
    for (const p of projects) {
      const runs = this.pending.get(p);
      if (runs === undefined) continue;
      this.pending.delete(p);
      // chunks of neighbouring ids: a chunk's spans then sit together in the
      // (…, run_id, span_id) order of every part, and its statements read
      // those granules only (run ids arrive in no order: in arrival order, the
      // 2,000 runs of a chunk touched most granules of the hour, and the
      // finaliser read 33 rows per span finalised instead of 18; 1M spans:
      // 9.8–10.0 CPU-µs per span in arrival order, 7.6–8.3 sorted)
      const ids = [...runs].sort();
      this.finalising += ids.length;
      for (let i = 0; i < ids.length; i += this.chunkRuns) {
        if (this.stopBy !== undefined && Date.now() >= this.stopBy) {
          for (const id of ids.slice(i)) this.mark(p, id);
          this.finalising -= ids.length - i;
          return;
        }
        const chunk = ids.slice(i, i + this.chunkRuns);
        try {
          await this.finalise(p, chunk);
        } catch (err) {
          for (const id of ids.slice(i)) this.mark(p, id);
          this.finalising -= ids.length - i;
          throw err;
        }
        this.finalising -= chunk.length;
      }
    }
  }

  /** Writes the facts of these runs of one project from their spans. */
  private async finalise(projectId: string, runIds: readonly string[]): Promise<void> {
    const query_params = {
      ...filterParams({ projectId, ...ALL_TIME, runIds }, EMPTY_PRICE_TABLE),
      repeat: DEFAULT_LOOP_THRESHOLDS.repeat,
      pingPongCycles: DEFAULT_LOOP_THRESHOLDS.pingPongCycles,
    };
    await this.client.command({ query: FINALISE_STEP_FACTS_SQL, query_params });
    await this.client.command({ query: FINALISE_RUN_STEPS_SQL, query_params });
    await this.client.command({ query: FINALISE_RUN_FACTS_SQL, query_params });
  }
}
