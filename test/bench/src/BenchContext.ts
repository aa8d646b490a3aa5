import type { Analytics } from '@telltale/analytics';
import type { AnalyticsFilter, PriceTable, Store } from '@telltale/store';
import type { LooseRow } from './compareRows.js';
import { plainParams } from './plainSqlParts.js';
import { StoreInspector } from '@telltale/store/testing';

/** What every case needs: the store, the facade, the filter of the overview and sample ids for the lookups. */
export interface BenchContext {
  store: Store;
  analytics: Analytics;
  /** The overview filter: one project, the dataset's whole window. */
  filter: AnalyticsFilter;
  prices: PriceTable;
  /** A completed run of the project (for getRun) and its trace (for getTraceSpans). */
  sample: { runId: string; traceId: string };
  /** Runs query `sql` with the baseline's parameters (plus `extra`) and returns every row. */
  sql: (query: string, extra?: Record<string, unknown>) => Promise<LooseRow[]>;
}

export function benchContext(
  store: Store,
  analytics: Analytics,
  filter: AnalyticsFilter,
  prices: PriceTable,
  sample: BenchContext['sample'],
): BenchContext {
  const params = plainParams(filter, prices);
  return {
    store,
    analytics,
    filter,
    prices,
    sample,
    sql: (query, extra = {}) => {
      return new StoreInspector(store).baselineRows<LooseRow>(query, { ...params, ...extra });
    },
  };
}
