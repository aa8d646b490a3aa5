import type { StoreDb } from '../StoreDb.js';
import type { AnalyticsFilter, PriceTable } from './AnalyticsFilter.js';
import { FACT_RUNS_CTE } from '../facts/factsSql.js';
import { useRunFacts } from '../facts/useRunFacts.js';
import { PRICED_SPANS_CTE, RUNS_CTE, filterParams, withClause } from '../sql/sqlParts.js';
import { TelltaleError, TelltaleErrorCode } from '@telltale/semconv';

/** What a run histogram counts: whole-run duration (ns) or run cost (USD, the cost queries' pricing). */
export const RUN_HISTOGRAM_METRICS = ['duration', 'cost'] as const;
export type RunHistogramMetric = (typeof RUN_HISTOGRAM_METRICS)[number];

/** Completed runs in `buckets` equal-width bins between the smallest and the largest value. */
export interface RunHistogramRows {
  /** Completed runs counted. */
  runs: number;
  min: number;
  max: number;
  /** Runs per bin, `buckets` of them (bin i covers [min + i·w, min + (i+1)·w), the last one closed); empty without runs. */
  counts: number[];
}

const VALUE_SQL: Readonly<Record<RunHistogramMetric, string>> = {
  duration: 'toFloat64(run_duration_ns)',
  cost: 'toFloat64(run_cost)',
};

/**
 * One pass over the completed runs: their min, max and values, binned in
 * the query (the values never leave ClickHouse). The runs come from the run
 * facts when the filter allows, else from the spans, as every run-level query.
 */
function histogramSql(metric: RunHistogramMetric): string {
  return `SELECT n, lo, hi, arrayMap(i -> countEqual(idx, i), range({buckets:UInt32})) AS counts
FROM (
    SELECT n, lo, hi,
        arrayMap(x -> if(hi > lo, least(toUInt32(floor((x - lo) / (hi - lo) * {buckets:UInt32})), {buckets:UInt32} - 1), toUInt32(0)), vs) AS idx
    FROM (
        SELECT count() AS n, min(v) AS lo, max(v) AS hi, groupArray(v) AS vs
        FROM (SELECT ${VALUE_SQL[metric]} AS v FROM runs WHERE outcome != 'incomplete')
    )
)`;
}

type Num = number | string;

export async function queryRunHistogram(
  db: StoreDb,
  filter: AnalyticsFilter,
  prices: PriceTable,
  opts: { metric: RunHistogramMetric; buckets: number },
): Promise<RunHistogramRows> {
  const { client } = db;
  if (!Number.isInteger(opts.buckets) || opts.buckets < 1 || opts.buckets > 1000)
    throw new TelltaleError({
      code: TelltaleErrorCode.BAD_REQUEST,
      message: `buckets must be a whole number in [1, 1000], got ${opts.buckets}`,
    });
  const source = (await useRunFacts(db.runFacts, filter))
    ? withClause(FACT_RUNS_CTE)
    : withClause(PRICED_SPANS_CTE, RUNS_CTE);
  const result = await client.query({
    query: `${source}\n${histogramSql(opts.metric)}`,
    format: 'JSONEachRow',
    query_params: { ...filterParams(filter, prices), buckets: opts.buckets },
  });
  const [row] = await result.json<{ n: Num; lo: Num; hi: Num; counts: Num[] }>();
  const runs = Number(row?.n ?? 0);
  if (runs === 0) return { runs: 0, min: 0, max: 0, counts: [] };
  return { runs, min: Number(row?.lo ?? 0), max: Number(row?.hi ?? 0), counts: (row?.counts ?? []).map(Number) };
}
