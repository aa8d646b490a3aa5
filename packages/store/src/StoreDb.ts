import type { ClickHouseClient } from '@clickhouse/client';
import type { RunFactsReader } from './facts/useRunFacts.js';

/**
 * What a store query runs against: the connection, and the run facts
 * maintainer whose pending runs a read of the facts finalises first
 * (useRunFacts). Store passes itself; nothing looks the maintainer up.
 */
export interface StoreDb {
  readonly client: ClickHouseClient;
  readonly runFacts: RunFactsReader;
}
