import { randomBytes } from 'node:crypto';
import { requestFactBytes } from '@telltale/store/encode';
import type { RequestFacts } from './CollectorOptions.js';

/** Facts held at most, as bytes of their rows (past it, new facts are dropped: their runs go to SQL). */
const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;
/** A key unsettled or untaken this long is forgotten (its request was refused, or its facts never came). */
const DEFAULT_MAX_AGE_MS = 120_000;

interface Entry {
  at: number;
  settled: boolean;
  facts: RequestFacts | undefined;
  bytes: number;
  waiters: Array<() => void>;
}

/**
 * The run facts an ingest worker computes for a request after it has
 * answered for it (computeRequestFacts, off the acknowledgement's path),
 * held until the drain stores the request's spans: a request gets a key
 * (`issue`), its spool payload names it, the worker's facts `settle` it,
 * and the drain `take`s them. Not durable, and need not be: facts lost to
 * a restart (keys name this process), dropped past the cap, or not ready in
 * time leave their runs pending, for the SQL finaliser.
 */
export class RequestFactsBuffer {
  private readonly entries = new Map<string, Entry>();
  private readonly prefix = randomBytes(6).toString('hex');
  private seq = 0;
  private bytes = 0;

  constructor(
    private readonly maxBytes = DEFAULT_MAX_BYTES,
    private readonly maxAgeMs = DEFAULT_MAX_AGE_MS,
    private readonly clock: () => number = Date.now,
  ) {}

  /** A key for a request whose facts will be settled. */
  issue(): string {
    const now = this.clock();
    // the oldest first (insertion order): forget what was never taken
    for (const [key, e] of this.entries) {
      if (now - e.at < this.maxAgeMs) break;
      this.drop(key, e);
    }
    const key = `${this.prefix}.${++this.seq}`;
    this.entries.set(key, { at: now, settled: false, facts: undefined, bytes: 0, waiters: [] });
    return key;
  }

  /** A request's facts (undefined or no runs: none will come); dropped when the buffer is full. */
  settle(key: string, facts: RequestFacts | undefined): void {
    const e = this.entries.get(key);
    if (e === undefined || e.settled) return;
    const bytes = facts === undefined ? 0 : requestFactBytes(facts);
    e.settled = true;
    if (facts !== undefined && facts.runs.length > 0 && this.bytes + bytes <= this.maxBytes) {
      e.facts = facts;
      e.bytes = bytes;
      this.bytes += bytes;
    }
    for (const wake of e.waiters.splice(0)) wake();
  }

  /** Forgets a request's key (its request was not committed). */
  forget(key: string): void {
    const e = this.entries.get(key);
    if (e !== undefined) this.drop(key, e);
  }

  /** Takes a request's facts, waiting until `waitUntil` (epoch ms) at most for them to be settled. */
  async take(key: string, waitUntil: number): Promise<RequestFacts | undefined> {
    const e = this.entries.get(key);
    if (e === undefined) return undefined;
    const wait = waitUntil - this.clock();
    if (!e.settled && wait > 0) {
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        e.waiters.push(resolve);
        timer = setTimeout(resolve, wait);
      });
      clearTimeout(timer);
    }
    this.drop(key, e);
    return e.facts;
  }

  /** Characters of facts held (for tests and metrics). */
  get heldBytes(): number {
    return this.bytes;
  }

  private drop(key: string, e: Entry): void {
    this.entries.delete(key);
    this.bytes -= e.bytes;
    e.bytes = 0;
    for (const wake of e.waiters.splice(0)) wake();
  }
}
