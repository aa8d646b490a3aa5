import { IS_ROOT, RAW_COST, ROOT_KEY, SCOPE, USAGE_COUNTED, exactLevels } from './plainSqlParts.js';

/** Span columns with the span's cost (NaN-free) and whether its usage is unpriced. */
const PRICED = `SELECT *, if(isNaN(raw), 0, raw) AS cost, ${USAGE_COUNTED} AND isNaN(raw) AS unpriced
    FROM (SELECT run_id, step_kind, is_run_root, start_time, status_code, run_outcome, model, input_tokens, output_tokens, cached_input_tokens,
                 ${RAW_COST} AS raw
          FROM spans WHERE ${SCOPE})`;

/** One row per run of the window (incomplete ones too): outcome, start, cost and usage. */
const PER_RUN = `per_run AS (
    SELECT run_id,
        countIf(${IS_ROOT}) > 0 AS completed,
        argMaxIf(status_code = 2 OR run_outcome = 'failure', ${ROOT_KEY}, ${IS_ROOT}) AS failed,
        multiIf(NOT completed, 'incomplete', failed, 'failure', 'success') AS outcome,
        min(start_time) AS run_start,
        sum(cost) AS run_cost,
        sumIf(input_tokens, ${USAGE_COUNTED}) AS in_tok,
        sumIf(output_tokens, ${USAGE_COUNTED}) AS out_tok,
        sumIf(least(cached_input_tokens, input_tokens), ${USAGE_COUNTED}) AS cached_tok,
        countIf(unpriced) AS unpriced_spans
    FROM (${PRICED})
    GROUP BY run_id
)`;

/** Run cost totals by outcome, exact nearest-rank percentiles over completed runs, tokens: the cost summary. */
export const PLAIN_RUN_COST = `WITH ${PER_RUN}
SELECT count() AS runs,
    countIf(outcome = 'success') AS success_runs, countIf(outcome = 'failure') AS failure_runs, countIf(outcome = 'incomplete') AS incomplete_runs,
    sum(run_cost) AS total, sumIf(run_cost, outcome = 'success') AS success_cost, sumIf(run_cost, outcome = 'failure') AS failure_cost,
    sumIf(run_cost, outcome = 'incomplete') AS incomplete_cost,
    avgIf(run_cost, completed) AS mean_cost,
    quantilesExactIf(${exactLevels([0.5, 0.95, 0.99])})(run_cost, completed) AS q,
    q[1] AS p50, q[2] AS p95, q[3] AS p99,
    maxIf(run_cost, completed) AS max_cost,
    sum(in_tok) AS input_tokens, sum(out_tok) AS output_tokens, sum(cached_tok) AS cached_input_tokens, sum(unpriced_spans) AS unpriced_spans
FROM per_run`;

/** Usage no price covers, by model: the cost summary's second part. */
export const PLAIN_UNPRICED = `SELECT model, count() AS spans, sum(input_tokens) AS in_tok,
    sum(least(cached_input_tokens, input_tokens)) AS cached_tok, sum(output_tokens) AS out_tok
FROM (${PRICED})
WHERE unpriced
GROUP BY model`;

/** Cost and usage per step / tool / model. */
export function plainCostBreakdown(groupBy: 'step' | 'tool' | 'model'): string {
  const key = { step: 'step_name', tool: 'tool_name', model: 'model' }[groupBy];
  return `SELECT ${key} AS key, sum(cost) AS cost_sum, count() AS calls,
    countIf(input_tokens + output_tokens > 0 OR cost > 0) AS billed_calls,
    sum(input_tokens) AS in_tok, sum(least(cached_input_tokens, input_tokens)) AS cached_tok, sum(output_tokens) AS out_tok,
    countIf(unpriced) AS unpriced_spans
FROM (SELECT *, if(isNaN(raw), 0, raw) AS cost, isNaN(raw) AS unpriced
      FROM (SELECT ${key}, input_tokens, output_tokens, cached_input_tokens, ${RAW_COST} AS raw
            FROM spans WHERE ${SCOPE} AND ${USAGE_COUNTED}))
GROUP BY key
HAVING key != '' OR cost_sum > 0 OR billed_calls > 0`;
}

/** Cost per interval of run start: totals, failure cost, completed-run distribution. */
export const PLAIN_COST_SERIES = `WITH ${PER_RUN}
SELECT intDiv(toUnixTimestamp64Milli(run_start), {intervalMs:Int64}) * {intervalMs:Int64} AS bucket_ms,
    count() AS runs, countIf(completed) AS completed_runs, sum(run_cost) AS total, sumIf(run_cost, outcome = 'failure') AS failure_cost,
    avgIf(run_cost, completed) AS mean_cost,
    quantilesExactIf(${exactLevels([0.5, 0.95])})(run_cost, completed) AS q, q[1] AS p50, q[2] AS p95,
    maxIf(run_cost, completed) AS max_cost
FROM per_run
GROUP BY bucket_ms`;

/** Completed runs by run cost in `{buckets}` equal-width bins from the cheapest to the most expensive; empty bins left out. */
export const PLAIN_COST_HISTOGRAM = `WITH ${PER_RUN},
(SELECT (minIf(run_cost, completed), maxIf(run_cost, completed)) FROM per_run) AS b
SELECT if(b.2 > b.1, least(toUInt32(floor((run_cost - b.1) / (b.2 - b.1) * {buckets:UInt32})), {buckets:UInt32} - 1), 0) AS bucket, count() AS runs
FROM per_run
WHERE completed
GROUP BY bucket`;
