import { TupleParam, type ClickHouseClient } from '@clickhouse/client';
import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';
import { EMPTY_PRICE_TABLE } from '../analytics/AnalyticsFilter.js';
import { filterParams } from '../sql/sqlParts.js';
import type { SpanRecord } from '../spans/SpanRecord.js';
import type { InsertTransport } from '../insertTransport.js';
import { runFactThresholdParams } from './factsSql.js';
import {
  FINALISE_RUN_FACTS_SQL,
  FINALISE_RUN_STEPS_SQL,
  FINALISE_STEP_FACTS_SQL,
  RUNS_TIME_SQL,
  RUNS_INGESTED_SINCE_SQL,
  STALE_RUNS_OF_SQL,
  STALE_RUNS_SQL,
} from './finaliseSql.js';
import type { TableStatements } from '../cluster/clusterMigrations.js';
import { TraceRunResolver } from './TraceRunResolver.js';
import { computeRunFacts } from './incremental/computeRunFacts.js';
import { finaliseKept } from './incremental/finaliseKept.js';
import type { RequestFactRows } from './incremental/requestFacts.js';
import { RunFactsState } from './incremental/RunFactsState.js';
import { writeRequestFacts } from './incremental/writeRequestFacts.js';
import { writeFactRows } from './incremental/writeFactRows.js';

/**
 * Runs finalised per statement: a bounded `IN` set, and a few hundred ms of
 * work. Measured against 2,000 (ingest bench, 120 s rounds alternating, two
 * each): 61.3k and 62.1k spans/s sustained with peak RSS 1,000 and 957 MiB,
 * against 56.2k and 60.3k with 1,018 and 1,069 MiB (each statement holds
 * its runs' spans in memory). 500, measured earlier, kept pace but each chunk
 * reads at least a granule of every part, so a backlog took far longer.
 */
const DEFAULT_CHUNK_RUNS = 1_000;
/**
 * Runs compared per statement by a catch-up of the runs ingested since a
 * moment: a bounded `IN` set, whose pairs a remote server receives in the
 * request's URL (about 110 KB here, well under ClickHouse's 1 MiB limit).
 */
const STALE_CHECK_RUNS = 2_000;
/**
 * The background leaves a run pending until no spans came for it this long
 * (longer than the 5 s between a BatchSpanProcessor's exports, so a run
 * still going is not finalised after every export)…
 */
const DEFAULT_QUIET_MS = 10_000;
/** …or until it has been pending this long (a run that keeps receiving spans). */
const DEFAULT_MAX_PENDING_MS = 30_000;
/** Runs with no span stored: the finaliser's window is all time (DateTime64(9) ends in 2262), and it writes nothing. */
const ALL_TIME = { fromUnixNano: 0n, toUnixNano: 7_258_118_400n * 1_000_000_000n };
/**
 * Worker facts are held until they cover this many spans (two of the
 * drain's batches) and written together: each write of the three facts
 * tables, with its span count check, costs the engine much the same
 * whatever its size. 1,024,000 of the ingest bench's spans in 16 batches,
 * their facts written per batch, per two and per four batches, alternating:
 * 2.00 / 1.92, 1.38 / 1.43 and 0.94 / 1.01 CPU-µs per span. In the server
 * (60 s ingest bench rounds) per batch, per two and per four: 77.0–79.1k,
 * 81.2k and 81.2–83.4k spans/s sustained, at peak RSS 852–861, 875 and
 * 879–935 MiB; two keep most of the gain for a third of the memory.
 */
const DEFAULT_HOLD_SPANS = 128_000;
/** …or for at most this long after the first of them arrived. */
const DEFAULT_HOLD_MS = 2_000;

export interface RunFactsOptions {
  /** Runs per finalising statement (default 1,000). */
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
  /** The background finalises a run once it received no spans for this long (default 10 s)… */
  quietMs?: number;
  /** …or once it has been pending this long (default 30 s). Queries, `flush` and `stop` take every pending run. */
  maxPendingMs?: number;
  /** Milliseconds now (default Date.now; tests pass their own). */
  clock?: () => number;
  /** How long a downstream trace fragment waits for its run's spans before it is a run of its own (default 30 s; TraceRunResolver). */
  orphanQuietMs?: number;
  /**
   * Facts of the runs whose spans this process stored, computed from those
   * spans kept in memory instead of read back (RunFactsState; default on,
   * at most 250,000 spans kept). false: every run by the SQL finaliser.
   */
  incremental?: false | { maxSpans?: number };
  /**
   * Facts from the ingest workers (`addRequestFacts`) are written once they
   * cover `spans` spans (default 128,000) or `ms` after the first came
   * (default 2 s), and before any flush; `{ spans: 0 }` writes each call's at once.
   */
  holdFacts?: { spans?: number; ms?: number };
}

/** Worker facts of one project, their runs taken off the pending set and not yet written. */
interface HeldFacts {
  projectId: string;
  requests: RequestFactRows[];
  taken: Array<[string, PendingRun]>;
}

/** A pending run: when it became pending, and when spans for it last arrived. */
interface PendingRun {
  since: number;
  last: number;
}

/**
 * Keeps the run facts (migration 0003) up to date: every run that received
 * spans through this process is pending until finalised; `flush` finalises
 * the pending runs of a project (queries call it first, so a process reads
 * its own writes), a timer does it in the background for runs that are
 * settled (quiet for `quietMs`, or pending for `maxPendingMs`: a run is
 * finalised again whenever it receives spans, and each time reads all its
 * spans so far, so finalising a run still going after every export would
 * cost many times its spans), and `reconcile` catches up after a restart, or
 * with spans written by other processes, by comparing span counts and ingest
 * times with what the facts saw.
 *
 * A run's facts are computed in TypeScript from the spans this process
 * stored through `addSpans` and kept (incremental/, bounded) when storage
 * holds exactly those spans and the trace resolver has nothing to move;
 * any other run (a restart, another process's spans, evicted, Arrow
 * batches whose spans were not kept) goes to the SQL finaliser, the
 * reference both are tested against.
 *
 * Finalising a run twice is harmless (the newer row wins), so a run is taken
 * off the pending set before its statement runs and put back if it fails.
 * Step facts and run steps are written before run facts: a run row is the
 * commit mark that `reconcile` checks.
 */
export class RunFacts {
  private readonly pending = new Map<string, Map<string, PendingRun>>();
  private chain: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private readonly chunkRuns: number;
  private readonly onError: (err: unknown) => void;
  private readonly readWaitMs: number | undefined;
  private readonly quietMs: number;
  private readonly maxPendingMs: number;
  private readonly clock: () => number;
  private readonly resolver: TraceRunResolver;
  /** Runs taken off `pending` by a flush under way and not yet written. */
  private finalising = 0;
  /** While a time-limited stop runs: no chunk of any flush starts after it. */
  private stopBy: number | undefined;
  /** Runs a catch-up found stale and not finalised yet, per project, in id order (the background's settled flush leaves them to the catch-up). */
  private readonly stale = new Map<string, Set<string>>();
  /** When the current catch-up found its stale runs (their pending age counts from it). */
  private staleSince = 0;
  /** A catch-up's scan for stale runs under way: queries wait for it (bounded) before they read. */
  private scanning: Promise<unknown> | undefined;
  /** Counts `stop` calls: a catch-up under way at a stop starts no further chunk. */
  private stops = 0;
  /** The spans of recent runs, when facts are computed from them (`incremental`). */
  private readonly state: RunFactsState | undefined;
  /** Runs finalised so far: from spans in hand, and by the SQL finaliser. */
  readonly finalised = { incremental: 0, sql: 0 };
  /** Worker facts waiting to be written together, per project, with the spans they cover. */
  private held = new Map<string, HeldFacts>();
  private heldSpans = 0;
  private heldTimer: NodeJS.Timeout | undefined;
  private readonly holdSpans: number;
  private readonly holdMs: number;

  /**
   * `transport`: how fact rows reach the engine (the store's; default: inline
   * in the statement, which every connection takes). `statements`: how the
   * trace resolver's deletes reach the servers (the store's; default: as written).
   */
  constructor(
    private readonly client: ClickHouseClient,
    opts: RunFactsOptions = {},
    private readonly transport: InsertTransport = { kind: 'body' },
    statements: TableStatements = (sql) => [sql],
  ) {
    this.chunkRuns = opts.chunkRuns ?? DEFAULT_CHUNK_RUNS;
    this.onError = opts.onError ?? (() => undefined);
    this.readWaitMs = opts.readWaitMs;
    this.quietMs = opts.quietMs ?? DEFAULT_QUIET_MS;
    this.maxPendingMs = opts.maxPendingMs ?? DEFAULT_MAX_PENDING_MS;
    this.clock = opts.clock ?? Date.now;
    this.resolver = new TraceRunResolver(client, opts.orphanQuietMs, statements);
    this.state = opts.incremental === false ? undefined : new RunFactsState(opts.incremental ?? {});
    this.holdSpans = opts.holdFacts?.spans ?? DEFAULT_HOLD_SPANS;
    this.holdMs = opts.holdFacts?.ms ?? DEFAULT_HOLD_MS;
  }

  /** Keeps stored spans (after their insert) for the incremental facts and marks their runs pending. */
  addSpans(spans: readonly SpanRecord[]): void {
    this.state?.addRecords(spans);
    this.markRuns(spans);
  }

  /**
   * Takes the facts ingest workers computed for the runs their requests held
   * whole (computeRequestFacts), once those requests' spans are stored and
   * their runs marked: each run is taken off the pending set, and its facts
   * are held until the held facts cover `holdFacts.spans` spans, or for
   * `holdFacts.ms`, or until a flush or stop, then written together. A run's
   * facts are written when storage holds exactly the spans they were
   * computed from (writeRequestFacts); a run that fails the check goes back
   * to pending, for the SQL finaliser. Resolves once they are held, or
   * written when this call fills the hold. Never rejects: a failure goes to
   * `onError`, and the runs go back to pending.
   */
  async addRequestFacts(facts: ReadonlyArray<{ projectId: string } & RequestFactRows>): Promise<void> {
    for (const { projectId, runs, rows } of facts) {
      if (runs.length === 0) continue;
      let held = this.held.get(projectId);
      if (held === undefined) this.held.set(projectId, (held = { projectId, requests: [], taken: [] }));
      held.requests.push({ runs, rows });
      // taken now, so a flush coming meanwhile leaves them to the held write
      const taken = this.takeRuns(
        projectId,
        runs.map((f) => f.runId),
      );
      held.taken.push(...taken);
      this.finalising += taken.length;
      for (const f of runs) this.heldSpans += f.spans;
    }
    if (this.heldSpans >= this.holdSpans) {
      await this.enqueue(() => this.writeHeld());
      return;
    }
    if (this.held.size > 0 && this.heldTimer === undefined) {
      this.heldTimer = setTimeout(() => {
        this.heldTimer = undefined;
        void this.enqueue(() => this.writeHeld());
      }, this.holdMs);
      this.heldTimer.unref();
    }
  }

  /** Writes the held worker facts (in the queue); never rejects: on failure their runs go back to pending. */
  private async writeHeld(): Promise<void> {
    if (this.heldTimer !== undefined) clearTimeout(this.heldTimer);
    this.heldTimer = undefined;
    const work = [...this.held.values()];
    this.held = new Map();
    this.heldSpans = 0;
    try {
      while (work.length > 0) {
        const { projectId, requests, taken } = work[0]!;
        const written = await writeRequestFacts(this.client, this.transport, projectId, requests);
        this.finalised.incremental += written.size;
        this.finalising -= taken.length;
        work.shift();
        this.putBack(
          projectId,
          taken.filter(([id]) => !written.has(id)),
        );
      }
    } catch (err) {
      for (const { projectId, taken } of work) {
        this.finalising -= taken.length;
        this.putBack(projectId, taken);
      }
      this.onError(err);
    }
  }

  /** Marks the runs of stored spans (or of (project, run) pairs) as pending: spans for them arrived now. */
  markRuns(runs: Iterable<Pick<SpanRecord, 'projectId' | 'runId'>>): void {
    const now = this.clock();
    for (const r of runs) this.mark(r.projectId, r.runId, now);
  }

  mark(projectId: string, runId: string, now = this.clock()): void {
    let runs = this.pending.get(projectId);
    if (runs === undefined) this.pending.set(projectId, (runs = new Map<string, PendingRun>()));
    const run = runs.get(runId);
    if (run === undefined) runs.set(runId, { since: now, last: now });
    else run.last = now;
  }

  /** Runs waiting to be finalised (all projects), those a catch-up found stale and not yet finalised included. */
  pendingRuns(): number {
    let n = this.staleRuns();
    for (const [projectId, runs] of this.pending) {
      const stale = this.stale.get(projectId);
      if (stale === undefined) n += runs.size;
      else for (const id of runs.keys()) if (!stale.has(id)) n++;
    }
    return n;
  }

  /** Runs a catch-up found stale and has not finalised yet. */
  staleRuns(): number {
    let n = 0;
    for (const runs of this.stale.values()) n += runs.size;
    return n;
  }

  /** When the longest-waiting pending run became pending (epoch ms, this instance's clock), or undefined when none is. */
  oldestPendingSince(): number | undefined {
    let oldest = this.stale.size > 0 ? this.staleSince : undefined;
    for (const runs of this.pending.values())
      for (const run of runs.values()) if (oldest === undefined || run.since < oldest) oldest = run.since;
    return oldest;
  }

  /**
   * Finalises the pending runs of `projectId` (of every project when absent),
   * after any finalisation already under way; resolves once their facts are
   * written, rejects when the storage fails (the runs stay pending).
   */
  flush(projectId?: string): Promise<void> {
    return this.enqueue(async () => {
      await this.writeHeld();
      await this.finalisePending(projectId, false);
    });
  }

  /** The background's flush: the settled runs of every project (see the class comment). */
  private flushSettled(): Promise<void> {
    return this.enqueue(() => this.finalisePending(undefined, true));
  }

  private enqueue(work: () => Promise<void>): Promise<void> {
    const next = this.chain.then(work);
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
    // a catch-up still looking for stale runs: they become pending once it is done
    if (this.scanning !== undefined) await this.within(this.scanning);
    // a flush under way (the background's, a catch-up's chunk) comes first in the chain: its runs count as backlog too
    const backlog = (this.pending.get(projectId)?.size ?? 0) + (this.stale.get(projectId)?.size ?? 0) + this.finalising;
    const flushing = this.flush(projectId);
    if (this.readWaitMs === undefined || backlog <= this.chunkRuns) return flushing;
    flushing.catch(() => undefined); // if the wait ends first, a failure is the background's (the runs stay pending)
    await this.within(flushing);
  }

  /** Waits for `work`, at most `readWaitMs` when set; never rejects. */
  private async within(work: Promise<unknown>): Promise<void> {
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    if (this.readWaitMs === undefined) return settled;
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.readWaitMs);
    });
    try {
      await Promise.race([settled, waited]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Finalises every run whose facts are missing or stale (`catchUp`, awaited whole), then every pending run; returns how many were stale. */
  async reconcile(): Promise<number> {
    const stale = await this.catchUp();
    await this.flush();
    return stale;
  }

  /**
   * Finds the runs whose facts are missing or stale (a crash before
   * finalising, spans written by another process, data from before the facts
   * existed) and finalises them a chunk at a time, each chunk its own turn in
   * the queue: a query's flush coming between two chunks finalises its
   * project's stale runs first, so a server can serve while it catches up.
   * `onProgress` hears (done, total) after the scan and after every chunk.
   * Resolves with how many runs were stale; rejects when the storage fails
   * (what is left stays stale: call it again). A `stop` while it runs ends
   * it after its chunk (the next open's catch-up finds the rest).
   *
   * With `ingestedSinceMs` (epoch ms, storage clock: `storageNowMs`), it
   * looks only at the runs with a span ingested since then (PeriodicCatchUp).
   */
  async catchUp(
    opts: { onProgress?: (done: number, total: number) => void; ingestedSinceMs?: number } = {},
  ): Promise<number> {
    const stops = this.stops;
    const since = opts.ingestedSinceMs;
    const scan =
      since === undefined
        ? this.client
            .query({ query: STALE_RUNS_SQL, format: 'JSONEachRow' })
            .then((r) => r.json<{ project_id: string; run_id: string }>())
        : this.staleRunsIngestedSince(since);
    this.scanning = scan;
    let rows: { project_id: string; run_id: string }[];
    try {
      rows = await scan;
    } finally {
      if (this.scanning === scan) this.scanning = undefined;
    }
    // chunks of neighbouring ids (see finalisePending)
    rows.sort((a, b) => compare(a.project_id, b.project_id) || compare(a.run_id, b.run_id));
    if (this.stale.size === 0) this.staleSince = this.clock();
    for (const r of rows) {
      let runs = this.stale.get(r.project_id);
      if (runs === undefined) this.stale.set(r.project_id, (runs = new Set<string>()));
      runs.add(r.run_id);
    }
    const total = this.staleRuns();
    opts.onProgress?.(0, total);
    while (this.stale.size > 0 && this.stops === stops) {
      await this.enqueue(() => this.finaliseStaleChunk());
      opts.onProgress?.(total - this.staleRuns(), total);
    }
    return rows.length;
  }

  /**
   * The stale runs among those with a span ingested since `sinceMs`: first
   * those runs (reading only the granules ingested since), then their spans
   * and facts by key, STALE_CHECK_RUNS at a time. None ingested since: one
   * small read.
   */
  private async staleRunsIngestedSince(sinceMs: number): Promise<{ project_id: string; run_id: string }[]> {
    const touched = await this.client
      .query({ query: RUNS_INGESTED_SINCE_SQL, format: 'JSONEachRow', query_params: { since: Math.floor(sinceMs) } })
      .then((r) => r.json<{ project_id: string; run_id: string }>());
    const stale: { project_id: string; run_id: string }[] = [];
    for (let i = 0; i < touched.length; i += STALE_CHECK_RUNS) {
      const runs = touched.slice(i, i + STALE_CHECK_RUNS).map((r) => new TupleParam([r.project_id, r.run_id]));
      const result = await this.client.query({
        query: STALE_RUNS_OF_SQL,
        format: 'JSONEachRow',
        query_params: { runs },
      });
      stale.push(...(await result.json<{ project_id: string; run_id: string }>()));
    }
    return stale;
  }

  /** Milliseconds now by the storage's clock, the clock of the spans' ingest times. */
  async storageNowMs(): Promise<number> {
    const result = await this.client.query({
      query: 'SELECT toString(toUnixTimestamp64Milli(now64(3))) AS now',
      format: 'JSONEachRow',
    });
    const [row] = await result.json<{ now: string }>();
    const now = Number(row?.now);
    if (!Number.isFinite(now))
      throw new TelltaleError({ code: TelltaleErrorCode.STORAGE, message: `storage answered no time: ${row?.now}` });
    return now;
  }

  /** Finalises the next chunk of stale runs (of the first project that has any); on failure they stay stale. */
  private async finaliseStaleChunk(): Promise<void> {
    const first = this.stale.entries().next();
    if (first.done === true) return;
    const [projectId, runs] = first.value;
    const chunk: string[] = [];
    for (const id of runs) {
      chunk.push(id);
      if (chunk.length >= this.chunkRuns) break;
    }
    for (const id of chunk) runs.delete(id);
    if (runs.size === 0) this.stale.delete(projectId);
    this.finalising += chunk.length;
    try {
      await this.finalise(projectId, chunk);
    } catch (err) {
      let left = this.stale.get(projectId);
      if (left === undefined) this.stale.set(projectId, (left = new Set<string>()));
      for (const id of chunk) left.add(id);
      throw err;
    } finally {
      this.finalising -= chunk.length;
    }
  }

  /**
   * Finalises the settled runs every `intervalMs` in the background until
   * `stop`. While `busy()` says ingest needs the CPU, ticks are skipped, for
   * at most `maxDeferMs` (default 30 s) in a row: finalising is work that
   * waits, and queries still finalise their project's pending runs before
   * they read.
   */
  start(intervalMs: number, opts: { busy?: () => boolean; maxDeferMs?: number } = {}): void {
    if (this.timer !== undefined) return;
    const maxDeferMs = opts.maxDeferMs ?? 30_000;
    let lastFlush = Date.now();
    this.timer = setInterval(() => {
      if (this.pending.size === 0) return;
      if (opts.busy?.() === true && Date.now() - lastFlush < maxDeferMs) return;
      lastFlush = Date.now();
      this.flushSettled().catch(this.onError);
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
    this.stops++;
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

  /**
   * Finalises the pending runs of a project (all projects when undefined),
   * only the settled ones when `settledOnly`; no chunk starts after `stopBy`.
   */
  private async finalisePending(projectId: string | undefined, settledOnly: boolean): Promise<void> {
    const projects =
      projectId === undefined
        ? [...new Set([...this.pending.keys(), ...(settledOnly ? [] : this.stale.keys())])]
        : [projectId];
    const now = this.clock();
    for (const p of projects) {
      const runs = this.take(
        p,
        settledOnly ? (r) => now - r.last >= this.quietMs || now - r.since >= this.maxPendingMs : undefined,
      );
      if (runs.length === 0) continue;
      // chunks of neighbouring ids: a chunk's spans then sit together in the
      // (…, run_id, span_id) order of every part, and its statements read
      // those granules only (run ids arrive in no order: in arrival order, the
      // 2,000 runs of a chunk touched most granules of the hour, and the
      // finaliser read 33 rows per span finalised instead of 18; 1M spans:
      // 9.8–10.0 CPU-µs per span in arrival order, 7.6–8.3 sorted)
      runs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      this.finalising += runs.length;
      for (let i = 0; i < runs.length; i += this.chunkRuns) {
        if (this.stopBy !== undefined && Date.now() >= this.stopBy) {
          this.putBack(p, runs.slice(i));
          this.finalising -= runs.length - i;
          return;
        }
        const chunk = runs.slice(i, i + this.chunkRuns);
        try {
          await this.finalise(
            p,
            chunk.map(([id]) => id),
          );
        } catch (err) {
          this.putBack(p, runs.slice(i));
          this.finalising -= runs.length - i;
          throw err;
        }
        this.finalising -= chunk.length;
      }
    }
  }

  /** Takes a project's pending runs off the pending set: all, or those `wanted` says. */
  private take(projectId: string, wanted: ((run: PendingRun) => boolean) | undefined): Array<[string, PendingRun]> {
    const runs = this.pending.get(projectId);
    if (wanted === undefined) {
      // a whole project's flush (a query's) takes its stale runs too
      const stale = this.stale.get(projectId);
      this.stale.delete(projectId);
      this.pending.delete(projectId);
      const taken = runs === undefined ? [] : [...runs];
      for (const id of stale ?? [])
        if (runs?.has(id) !== true) taken.push([id, { since: this.staleSince, last: this.staleSince }]);
      return taken;
    }
    if (runs === undefined) return [];
    const taken: Array<[string, PendingRun]> = [];
    for (const entry of runs) if (wanted(entry[1])) taken.push(entry);
    for (const [id] of taken) runs.delete(id);
    if (runs.size === 0) this.pending.delete(projectId);
    return taken;
  }

  /** Takes these runs of a project off the pending set (those pending). */
  private takeRuns(projectId: string, ids: Iterable<string>): Array<[string, PendingRun]> {
    const runs = this.pending.get(projectId);
    if (runs === undefined) return [];
    const taken: Array<[string, PendingRun]> = [];
    for (const id of ids) {
      const run = runs.get(id);
      if (run === undefined) continue;
      taken.push([id, run]);
      runs.delete(id);
    }
    if (runs.size === 0) this.pending.delete(projectId);
    return taken;
  }

  /** Puts runs a flush did not finalise back (keeping the earlier `since` of a run marked again meanwhile). */
  private putBack(projectId: string, runs: ReadonlyArray<[string, PendingRun]>): void {
    let pending = this.pending.get(projectId);
    if (pending === undefined) this.pending.set(projectId, (pending = new Map<string, PendingRun>()));
    for (const [id, run] of runs) {
      const current = pending.get(id);
      if (current === undefined) pending.set(id, run);
      else current.since = Math.min(current.since, run.since);
    }
  }

  /**
   * Writes the facts of these runs of one project from their spans, after
   * moving the spans that name no run into the run of their trace
   * (TraceRunResolver); fragments whose run is not known yet stay pending.
   */
  private async finalise(projectId: string, chunk: readonly string[]): Promise<void> {
    let rest = chunk;
    if (this.state !== undefined) {
      const kept = await finaliseKept(this.client, this.transport, this.state, projectId, chunk, this.onError);
      this.finalised.incremental += kept.computed;
      rest = kept.rest;
      if (rest.length === 0) return;
    }
    const {
      finalise: runIds,
      held,
      spanCounts,
      moved,
    } = await this.resolver.resolve(projectId, rest, await this.timeOf(projectId, rest));
    if (held.length > 0) {
      const now = this.clock();
      this.putBack(
        projectId,
        held.map((id) => [id, { since: now, last: now }]),
      );
    }
    if (runIds.length === 0) return;
    const sqlRuns: string[] = [];
    const computed: Array<{ rows: ReturnType<typeof computeRunFacts>; ingestedMaxMs: number }> = [];
    for (const id of runIds) {
      const held = moved.has(id) ? undefined : this.state?.spansOf(projectId, id, spanCounts.get(id));
      if (held === undefined) sqlRuns.push(id);
      else computed.push({ rows: computeRunFacts(id, held.spans), ingestedMaxMs: held.ingestedMaxMs });
    }
    await writeFactRows(this.client, this.transport, projectId, computed);
    this.finalised.incremental += computed.length;
    if (sqlRuns.length > 0) await this.finaliseBySql(projectId, sqlRuns);
  }

  /**
   * The SQL finaliser: the facts of these runs from their stored spans,
   * read between the first and the last start of those spans (asked again
   * here: the trace resolver may have moved spans into them). A span stored
   * after that bound was read belongs to an insert that marks its run
   * pending again, so the run is finalised again with it.
   */
  private async finaliseBySql(projectId: string, runIds: string[]): Promise<void> {
    this.finalised.sql += runIds.length;
    const query_params = {
      ...filterParams({ projectId, ...(await this.timeOf(projectId, runIds)), runIds }, EMPTY_PRICE_TABLE),
      ...runFactThresholdParams(),
    };
    await this.client.command({ query: FINALISE_STEP_FACTS_SQL, query_params });
    await this.client.command({ query: FINALISE_RUN_STEPS_SQL, query_params });
    await this.client.command({ query: FINALISE_RUN_FACTS_SQL, query_params });
  }

  /** The window from the first to the last span start of these runs (RUNS_TIME_SQL); ALL_TIME when none is stored. */
  private async timeOf(
    projectId: string,
    runIds: readonly string[],
  ): Promise<{ fromUnixNano: bigint; toUnixNano: bigint }> {
    const result = await this.client.query({
      query: RUNS_TIME_SQL,
      query_params: { projectId, runIds },
      format: 'JSONEachRow',
    });
    const [row] = await result.json<{ first_ns: string; last_ns: string; spans: number | string }>();
    if (row === undefined || Number(row.spans) === 0) return ALL_TIME;
    return { fromUnixNano: BigInt(row.first_ns), toUnixNano: BigInt(row.last_ns) + 1n };
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
