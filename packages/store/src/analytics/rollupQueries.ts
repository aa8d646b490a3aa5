import type { StoreDb } from '../StoreDb.js';
import type { AnalyticsFilter, PriceTable } from './AnalyticsFilter.js';
import { ROLLUP_DIGEST_MERGE_SQL, ROLLUP_SRC_CTE, rollupMinutes, rollupParams } from '../sql/rollupSql.js';
import { filterParams, priceOf, withClause } from '../sql/sqlParts.js';
import type { LatencyGroupBy } from '@telltale/semconv';

type Raw = Record<string, unknown>;

/** Step-level groupings the rollup holds: the key column and which rollup rows count (as latencySql's SPAN_SOURCES). */
const ROLLUP_GROUPS: Partial<Record<LatencyGroupBy, { key: string; where: string }>> = {
  step: { key: 'step_name', where: '1' },
  tool: { key: 'tool_name', where: "step_kind = 'tool' AND tool_name != ''" },
  model: { key: 'model', where: "step_kind = 'llm' AND model != ''" },
};

const LATENCY_AGGREGATES = `sum(spans) AS n, sum(dur_sum) / n AS mean_ns, max(dur_max) AS max_ns,
    n > {exactLimit:UInt64} AS digest,
    arrayMap(x -> toFloat64(x), ${ROLLUP_DIGEST_MERGE_SQL}(dur_dd)) AS q`;

/**
 * Latency rows (the raw path's columns) from the rollup, or undefined when
 * the grouping or filter is not one the rollup holds. Every row's quantiles
 * are the merged DDSketch; callers keep a row set only when every row is a
 * digest row, since exact percentiles need every value.
 */
export async function rollupLatencyRows(
  db: StoreDb,
  filter: AnalyticsFilter,
  prices: PriceTable,
  opts: { groupBy: LatencyGroupBy; exactLimit: number; series?: { intervalMs: number; topN: number } },
): Promise<Raw[] | undefined> {
  const g = ROLLUP_GROUPS[opts.groupBy];
  const minutes = rollupMinutes(filter);
  if (g === undefined || minutes === undefined) return undefined;
  if (opts.series !== undefined && opts.series.intervalMs % 60_000 !== 0) return undefined;
  const src = `${withClause(ROLLUP_SRC_CTE)},
latency_src AS (SELECT ${g.key} AS key, minute, spans, dur_sum, dur_max, dur_dd FROM rollup_src WHERE ${g.where})`;
  const query =
    opts.series === undefined
      ? `${src}
SELECT key, '' AS service, ${LATENCY_AGGREGATES}
FROM latency_src
GROUP BY key
ORDER BY n DESC, key`
      : `${src}
SELECT key, service, bucket_ms, n, mean_ns, max_ns, digest, q
FROM (
    SELECT key, '' AS service, intDiv(toInt64(toUnixTimestamp(minute)) * 1000, {intervalMs:Int64}) * {intervalMs:Int64} AS bucket_ms,
        ${LATENCY_AGGREGATES},
        sum(n) OVER (PARTITION BY key) AS group_n
    FROM latency_src
    GROUP BY key, bucket_ms
)
QUALIFY dense_rank() OVER (ORDER BY group_n DESC, key, service) <= {topN:UInt32}
ORDER BY group_n DESC, key, service, bucket_ms`;
  const result = await db.client.query({
    query,
    format: 'JSONEachRow',
    query_params: {
      ...filterParams(filter, prices),
      ...rollupParams(minutes),
      exactLimit: opts.exactLimit,
      ...(opts.series === undefined ? {} : { intervalMs: opts.series.intervalMs, topN: opts.series.topN }),
    },
  });
  return result.json<Raw>();
}

const COST_KEYS = { step: 'step_name', tool: 'tool_name', model: 'model' } as const;

/**
 * Cost breakdown rows (the raw path's columns) from the rollup, or undefined
 * when the filter is not one it holds. Prices apply per model when read:
 * explicit costs are summed at insert time, and the token sums of spans
 * without one are priced here; with no price those spans are unpriced.
 */
export async function rollupCostGroupRows(
  db: StoreDb,
  filter: AnalyticsFilter,
  prices: PriceTable,
  groupBy: keyof typeof COST_KEYS,
): Promise<Raw[] | undefined> {
  const minutes = rollupMinutes(filter);
  if (minutes === undefined) return undefined;
  const result = await db.client.query({
    query: `${withClause(ROLLUP_SRC_CTE)}
SELECT
    key,
    sum(cost) AS cost_sum,
    sum(spans) AS calls,
    sum(billed) AS billed_calls,
    sum(in_tok) AS in_tok,
    sum(cached_tok) AS cached_tok,
    sum(out_tok) AS out_tok,
    sum(unpriced) AS unpriced_spans
FROM (
    SELECT ${COST_KEYS[groupBy]} AS key, spans, billed, in_tok, cached_tok, out_tok,
        isNaN(${priceOf('priceInput')}) AS no_price,
        explicit_cost + if(no_price, 0, np_uncached * ${priceOf('priceInput')} + np_cached * ${priceOf('priceCached')} + np_out * ${priceOf('priceOutput')}) AS cost,
        if(no_price, np_spans, 0) AS unpriced
    FROM rollup_src
    WHERE step_kind != 'handoff'
)
GROUP BY key
HAVING key != '' OR cost_sum > 0 OR billed_calls > 0
ORDER BY cost_sum DESC, key`,
    format: 'JSONEachRow',
    query_params: { ...filterParams(filter, prices), ...rollupParams(minutes) },
  });
  return result.json<Raw>();
}
