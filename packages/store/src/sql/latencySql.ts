import { DIGEST_RELATIVE_ERROR, PERCENTILE_LEVELS, type LatencyGroupBy } from '@telltale/semconv';
import type { AnalyticsFilter } from '../analytics/AnalyticsFilter.js';
import { PRICED_SPANS_CTE, RUN_ROOTS_CTE, withClause } from './sqlParts.js';

/**
 * Exact percentiles use nearest rank (the definition @telltale/datasets'
 * `exactPercentile` tests against): the value at 1-based rank ⌈p·n⌉ of the
 * sorted values. ClickHouse's `quantileExact(level)` (nth_element over the
 * group's values) returns 0-based index ⌊level·n⌋ — the same index except
 * where p·n is whole, where it is one rank higher — so it is asked for level
 * p − 1e-12: ⌊(p − 1e-12)·n⌋ = ⌈p·n⌉ − 1 for every n < 10^9, as our levels
 * have at most three decimals (p·n is whole or ≥ 0.001 away from whole).
 * `quantileExactWeighted(p)(x, 1)` computes nearest rank directly but took
 * 3.6× as long on 10M spans (a hash map of values instead of nth_element).
 */
export function exactLevelsSql(levels: readonly number[]): string {
  return levels.map((p) => (p - 1e-12).toFixed(12)).join(', ');
}

export const EXACT_QUANTILES_SQL = `quantilesExact(${exactLevelsSql(PERCENTILE_LEVELS)})`;

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
 * Completed runs (a root has arrived: success or failure) that pass the
 * filters, with their root's name, service, start and duration — from
 * RUN_ROOTS_CTE, which reads root spans only; runs without a root
 * (incomplete) never appear. Span filters keep runs with a matching span.
 */
function timedRunsCte(spanFilter: boolean): string {
  return `${RUN_ROOTS_CTE},
timed_runs AS (
    SELECT run_id, root_name AS agent, root_service AS service, root_start, root_duration_ns AS run_duration_ns
    FROM run_roots
    WHERE ({service:String} = '' OR root_service = {service:String})
      AND ({agent:String} = '' OR root_name = {agent:String})${spanFilter ? '\n      AND run_id IN (SELECT run_id FROM priced WHERE span_match)' : ''}
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
    spanFilter:
      (f.stepName ?? '') !== '' ||
      (f.tool ?? '') !== '' ||
      (f.model ?? '') !== '' ||
      Object.keys(f.attributes ?? {}).length > 0,
  };
}

/** WITH clause with `priced`, `run_roots` and `timed_runs`. */
export function timedRunsSql(shape: FilterShape): string {
  return withClause(PRICED_SPANS_CTE, timedRunsCte(shape.spanFilter));
}

/**
 * The WITH clause ending in `latency_src (key, [service,] t, d)`: one row per
 * duration to aggregate, `t` the time it is bucketed by. Only the agent
 * grouping has a `service` column (`keys` says what to group by): a constant
 * grouping column cost 30% more CPU on 10M spans.
 *
 * - step / tool / model: matching step spans (each attempt's duration). With
 *   a service or agent filter, only spans of runs whose root matches.
 * - agent / run: completed runs' root durations (incomplete runs have none),
 *   keyed by the root's name and service, or one group; `t` is the root's start.
 */
export function latencySource(
  groupBy: LatencyGroupBy,
  shape: FilterShape,
): { sql: string; keys: string; service: string } {
  switch (groupBy) {
    case 'step':
    case 'tool':
    case 'model': {
      const s = SPAN_SOURCES[groupBy];
      const ctes = shape.runFilter ? [PRICED_SPANS_CTE, timedRunsCte(false)] : [PRICED_SPANS_CTE];
      const sql = `${withClause(...ctes)},
latency_src AS (
    SELECT ${s.key} AS key, start_time AS t, duration_ns AS d
    FROM priced
    WHERE ${s.where} AND span_match${shape.runFilter ? ' AND run_id IN (SELECT run_id FROM timed_runs)' : ''}
)`;
      return { sql, keys: 'key', service: "''" };
    }
    case 'agent':
      return {
        sql: `${timedRunsSql(shape)},
latency_src AS (SELECT agent AS key, service, root_start AS t, run_duration_ns AS d FROM timed_runs)`,
        keys: 'key, service',
        service: 'service',
      };
    case 'run':
      return {
        sql: `${timedRunsSql(shape)},
latency_src AS (SELECT '' AS key, root_start AS t, run_duration_ns AS d FROM timed_runs)`,
        keys: 'key',
        service: "''",
      };
  }
}
