import type { ClickHouseClient } from '@clickhouse/client';
import type { AnalyticsFilter } from '../analytics/AnalyticsFilter.js';
import type { LoopThresholds } from '../analytics/loopTypes.js';
import { readsRunFacts } from './factsSql.js';

/** What a query needs of the run facts maintainer (RunFacts): finalise a project's pending runs. */
export interface RunFactsReader {
  beforeRead(projectId: string): Promise<void>;
}

/** The run facts maintainer of each open store's client. */
const maintainers = new WeakMap<ClickHouseClient, RunFactsReader>();

export function registerRunFacts(client: ClickHouseClient, facts: RunFactsReader): void {
  maintainers.set(client, facts);
}

/**
 * Whether a query reads the run facts (readsRunFacts); when it does, the
 * project's runs pending in this process are finalised first, so a query
 * reads the spans its process has stored (under heavy ingest, with
 * `readWaitMs`, those finalised within that wait: RunFacts.beforeRead).
 */
export async function useRunFacts(client: ClickHouseClient, filter: AnalyticsFilter, thresholds?: LoopThresholds): Promise<boolean> {
  if (!readsRunFacts(filter, thresholds)) return false;
  await maintainers.get(client)?.beforeRead(filter.projectId);
  return true;
}
