import type { AnalyticsFilter } from './AnalyticsFilter.js';
import { PRICED_SPANS_CTE, withClause } from './sqlParts.js';

/** What latency percentiles are grouped by (RELIABILITY-MATH "Latency"). */
export const LATENCY_GROUP_BYS = ['step', 'tool', 'model', 'agent', 'run'] as const;
export type LatencyGroupBy = (typeof LATENCY_GROUP_BYS)[number];

/** The reported percentile levels, in the order every quantile array uses. */
export const PERCENTILE_LEVELS = [0.5, 0.9, 0.95, 0.99, 0.999] as const;

/** Groups with more values than this get a digest instead of exact percentiles. */
export const EXACT_PERCENTILE_LIMIT = 1_000_000;

/** Relative accuracy of the DDSketch digest (`quantilesDD`) used beyond the exact limit. */
export const DIGEST_RELATIVE_ERROR = 0.01;

/**
 * The exact percentile (the definition @telltale/datasets' `exactPercentile`
 * tests against): sort the n values ascending and take the element at 0-based
 * index ⌊p·n⌋ (float64), the last one for p ≥ 1 — the smallest value with
 * more than p·n values ≤ it. That is ClickHouse's `quantileExact`, which gets
 * there with nth_element on the group's values. (The textbook nearest rank,
 * index ⌈p·n⌉ − 1, differs when p·n is whole; `quantileExactWeighted(p)(x, 1)`
 * computes that one but took 3.6× as long on 10M spans.)
 */
export const EXACT_QUANTILES_SQL = `quantilesExact(${PERCENTILE_LEVELS.join(', ')})`;

/** DDSketch percentiles (relative error bounded by DIGEST_RELATIVE_ERROR). */
export const DIGEST_QUANTILES_SQL = `quantilesDD(${DIGEST_RELATIVE_ERROR}, ${PERCENTILE_LEVELS.join(', ')})`;

interface SpanSource {
  key: string;
  where: string;
}

/** Span-level groupings: which spans count and what they are grouped by. */
const SPAN_SOURCES: Record<'step' | 'tool' | 'model', SpanSource> = {
  step: { key: 'step_name', where: "step_kind NOT IN ('', 'run')" },
  tool: { key: 'tool_name', where: "step_kind = 'tool' AND tool_name != ''" },
  model: { key: 'model', where: "step_kind = 'llm' AND model != ''" },
};

/**
 * Completed runs (a root has ended: success or failure) that pass the
 * filters, one row each: the rollup of RUNS_CTE restricted to the columns
 * latency needs. The root is chosen as there (highest root rank, then the
 * earliest start), but only root candidates are read and grouped, which is
 * several times cheaper than grouping every span by run; runs without a root
 * (incomplete) never appear. Span filters keep runs with a matching span.
 */
function completedRunsCte(spanFilter: boolean): string {
  return `completed_runs AS (
    SELECT
        run_id,
        argMax(name, root_key) AS agent,
        argMax(service_name, root_key) AS service,
        argMax(start_time, root_key) AS root_start,
        argMax(duration_ns, root_key) AS run_duration_ns
    FROM priced
    WHERE root_rank > 0${spanFilter ? '\n      AND run_id IN (SELECT run_id FROM priced WHERE span_match)' : ''}
    GROUP BY run_id
    HAVING ({service:String} = '' OR service = {service:String})
       AND ({agent:String} = '' OR agent = {agent:String})
)`;
}

/** Which optional fragments a filter needs (fragments are fixed text; values stay bound parameters). */
export interface FilterShape {
  /** service or agent: runs are selected by their root. */
  runFilter: boolean;
  /** step, tool, model or attributes: runs must contain a matching span. */
  spanFilter: boolean;
}

export function filterShape(f: AnalyticsFilter): FilterShape {
  return {
    runFilter: (f.service ?? '') !== '' || (f.agent ?? '') !== '',
    spanFilter: (f.stepName ?? '') !== '' || (f.tool ?? '') !== '' || (f.model ?? '') !== '' || Object.keys(f.attributes ?? {}).length > 0,
  };
}

/** WITH clause with `priced` and `completed_runs`. */
export function completedRunsSql(shape: FilterShape): string {
  return withClause(PRICED_SPANS_CTE, completedRunsCte(shape.spanFilter));
}

/**
 * The WITH clause ending in `latency_src (key, service, t, d)`: one row per
 * duration to aggregate, `t` the time it is bucketed by.
 *
 * - step / tool / model: matching step spans (each attempt's duration). With
 *   a service or agent filter, only spans of runs whose root matches.
 * - agent / run: completed runs' root durations (incomplete runs have none),
 *   keyed by the root's name and service, or one group; `t` is the root's start.
 */
export function latencySourceSql(groupBy: LatencyGroupBy, shape: FilterShape): string {
  switch (groupBy) {
    case 'step':
    case 'tool':
    case 'model': {
      const s = SPAN_SOURCES[groupBy];
      const ctes = shape.runFilter ? [PRICED_SPANS_CTE, completedRunsCte(false)] : [PRICED_SPANS_CTE];
      return `${withClause(...ctes)},
latency_src AS (
    SELECT toString(${s.key}) AS key, '' AS service, start_time AS t, duration_ns AS d
    FROM priced
    WHERE ${s.where} AND span_match${shape.runFilter ? ' AND run_id IN (SELECT run_id FROM completed_runs)' : ''}
)`;
    }
    case 'agent':
    case 'run':
      return `${completedRunsSql(shape)},
latency_src AS (
    SELECT ${groupBy === 'agent' ? 'agent' : "''"} AS key, ${groupBy === 'agent' ? 'service' : "''"} AS service, root_start AS t, run_duration_ns AS d
    FROM completed_runs
)`;
  }
}
