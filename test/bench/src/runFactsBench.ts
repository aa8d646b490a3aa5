import type { Store } from '@telltale/store';
import { StoreInspector } from '@telltale/store/testing';

/** The store's run-facts tables (migration 0003), written by its finaliser (`store.runFacts`). */
export const FACTS_TABLES = ['run_facts', 'run_step_facts', 'run_steps'] as const;
export type FactsTable = (typeof FACTS_TABLES)[number];

/** Runs the finaliser measurement refinalises: a project's newest, at most this many. */
export const FINALISER_RUNS = 5_000;

/** One timed `store.runFacts.flush` over a project's newest runs. */
export interface FinaliserTiming {
  /** Runs refinalised (FINALISER_RUNS, fewer when the project has fewer). */
  runs: number;
  wallMs: number;
  /** CPU time of the process (all threads: chDB's and ours) during the flush. */
  cpuMs: number;
}

/**
 * Finalises every pending run (a fresh load leaves all of them pending),
 * then merges the facts tables (`OPTIMIZE … FINAL`): the merged state a
 * long-running store settles into, as the load leaves `spans`. It also folds
 * in the rows an earlier finaliser measurement wrote into a cached data
 * directory, so the sizes and the queries see one row per run.
 */
export async function settleRunFacts(store: Store): Promise<void> {
  await store.runFacts.flush();
  await new StoreInspector(store).mergeParts(FACTS_TABLES);
}

async function newestRuns(store: Store, projectId: string, limit: number): Promise<string[]> {
  return new StoreInspector(store).newestFactRuns(projectId, limit);
}

/**
 * Times the finaliser: marks the project's `limit` newest runs (by run
 * start: time-clustered, like the runs a store finalises right after their
 * ingest) and times `store.runFacts.flush(projectId)` over them, wall and
 * CPU time. Runs already pending are finalised first, untimed.
 */
export async function timeFinaliser(store: Store, projectId: string, limit = FINALISER_RUNS): Promise<FinaliserTiming> {
  await store.runFacts.flush();
  const runIds = await newestRuns(store, projectId, limit);
  for (const runId of runIds) store.runFacts.mark(projectId, runId);
  const cpu = process.cpuUsage();
  const started = performance.now();
  await store.runFacts.flush(projectId);
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { runs: runIds.length, wallMs, cpuMs: (used.user + used.system) / 1000 };
}
