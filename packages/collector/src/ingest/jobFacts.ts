import { computeRequestFacts } from '@telltale/store/encode';
import type { WorkerFacts } from './workerProtocol.js';

/**
 * A job's run facts from its spans Arrow message (none without one). A
 * fault here is never a run without facts, nor a failed request: the job
 * gets none, and its runs go to the SQL finaliser.
 */
export function jobFacts(factsKey: string, projectId: string, spans: Uint8Array | undefined): WorkerFacts {
  if (spans === undefined) return { factsKey, projectId, runs: [] };
  try {
    return { factsKey, projectId, runs: computeRequestFacts(projectId, spans) };
  } catch {
    return { factsKey, projectId, runs: [] };
  }
}
