import type { Lease, Store } from '@telltale/store';

/**
 * Ingest quotas across replicas: each ingest process registers in storage
 * (the `ingest-registry` lease rows, renewed every 5 s, lapsing after 15 s)
 * and enforces its project quota divided by the number of live ingest
 * processes. With a balancer spreading a project's exports evenly the
 * project gets its quota in total; spread unevenly it gets less (never more
 * than the quota, except for the 15 s after a process dies, when the others
 * still divide by the old count, and one burst per process).
 */
export class QuotaShare {
  private readonly registry: Lease;

  constructor(store: Store) {
    this.registry = store.lease({ name: 'ingest-registry', role: 'ingest', settleMs: 0 });
  }

  start(): void {
    this.registry.start();
  }

  stop(): Promise<void> {
    return this.registry.stop();
  }

  /** Live ingest processes (this one at least). */
  get processes(): number {
    return Math.max(1, this.registry.members().length);
  }

  /** `quotaOf` for this process: the project's quota over the live ingest processes. */
  wrap(quotaOf: (projectId: string) => number | undefined): (projectId: string) => number | undefined {
    return (projectId) => {
      const q = quotaOf(projectId);
      return q === undefined ? undefined : q / this.processes;
    };
  }
}
