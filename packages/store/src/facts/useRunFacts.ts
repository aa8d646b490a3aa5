import type { AnalyticsFilter } from '../analytics/AnalyticsFilter.js';
import type { LoopThresholds } from '../analytics/loopTypes.js';
import { readsRunFacts } from './factsSql.js';

/** What a query needs of the run facts maintainer (RunFacts): finalise a project's pending runs. */
export interface RunFactsReader {
  beforeRead(projectId: string): Promise<void>;
}

/**
 * Whether a query reads the run facts (readsRunFacts); when it does, the
 * project's runs pending in `runFacts` are finalised first, so a query
 * reads the spans its process has stored (under heavy ingest, with
 * `readWaitMs`, those finalised within that wait: RunFacts.beforeRead).
 */
export async function useRunFacts(
  runFacts: RunFactsReader,
  filter: AnalyticsFilter,
  thresholds?: LoopThresholds,
): Promise<boolean> {
  if (!readsRunFacts(filter, thresholds)) return false;
  await runFacts.beforeRead(filter.projectId);
  return true;
}
