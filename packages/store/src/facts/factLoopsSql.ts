import { scopedRunsCtes, variantCodeSql, type AgentLimitsSource } from '../sql/loopSql.js';
import { priceOf, withClause } from '../sql/sqlParts.js';
import { FACT_RUNS_CTE } from './factsSql.js';

/**
 * The loop chain's `run_loops` (the scoped runs that loop, with their
 * detections, in the span chain's tuple format) from the run facts: the
 * stored detections with their wasted spans priced from run_steps, and
 * runaway from the steps beyond the run's limit, which only a query knows
 * (it depends on the window's medians). Only the runs that loop read
 * run_steps, by key, so no span is read at all; a run that does not loop
 * has no row (the scoped runs count the runs).
 */
export function factLoopChain(limits: AgentLimitsSource): string {
  const stepCost = `if(isNaN(e), ${priceOf('priceInput', 'm')} * i + ${priceOf('priceCached', 'm')} * c + ${priceOf('priceOutput', 'm')} * o, e)`;
  return withClause(
    FACT_RUNS_CTE,
    scopedRunsCtes('all', limits, ['loop_dets']),
    `looping_runs AS (SELECT * FROM scoped_runs WHERE notEmpty(loop_dets) OR steps > step_limit)`,
    `loop_steps AS (
    SELECT run_id, span_key, start_ns, duration_ns,
        arrayMap(v -> if(isNaN(v), 0, v), arrayMap((e, m, i, c, o) -> ${stepCost}, explicit_cost, model, uncached, cached, output)) AS costs
    FROM run_steps FINAL
    WHERE project_id = {projectId:String}
      AND run_id IN (SELECT run_id FROM looping_runs)
)`,
    `run_loops AS MATERIALIZED (
    SELECT
        r.run_id AS run_id, r.agent AS agent, r.service AS service, r.outcome AS outcome, r.run_start AS run_start,
        r.has_median AS has_median, r.median_steps AS median_steps, r.step_limit AS step_limit,
        s.span_key AS keys, s.costs AS costs,
        arraySlice(arrayZip(s.start_ns, s.span_key, s.duration_ns, s.costs), toUInt32(floor(r.step_limit)) + 1) AS w,
        arrayConcat(
            arrayMap(d -> (d.1, d.2, d.3, d.4, d.5, d.6, arrayMap(x -> (x.1, x.2, x.3, costs[indexOf(keys, x.2)]), d.7)), r.loop_dets),
            if(length(keys) > r.step_limit, [(${variantCodeSql('step_count')}, toUInt64(0), toUInt64(0), toUInt32(length(keys)), w[1].1, w[1].2, w)], [])
        ) AS dets
    FROM looping_runs AS r
    LEFT JOIN loop_steps AS s ON s.run_id = r.run_id
    SETTINGS join_use_nulls = 0
)`,
  );
}
