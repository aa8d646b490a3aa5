import { computeRequestFacts, noRequestFacts } from '@telltale/store/encode';
import type { WorkerFacts } from './workerProtocol.js';

/**
 * A job's run facts from its spans Arrow message (none without one). A
 * fault here is never a run without facts, nor a failed request: the job
 * gets none, and its runs go to the SQL finaliser.
 */
export function jobFacts(factsKey: string, projectId: string, spans: Uint8Array | undefined): WorkerFacts {
  if (spans !== undefined) {
    try {
      return { factsKey, projectId, ...computeRequestFacts(projectId, spans) };
    } catch {
      // none: the SQL finaliser takes its runs
    }
  }
  return { factsKey, projectId, ...noRequestFacts() };
}
