import { COST_GROUP_BYS, LATENCY_GROUP_BYS, LOOP_KINDS, LOOP_ORDERS } from '@telltale/semconv';
import { z } from 'zod';
import { FILTER_QUERY, IntervalParam, RunIdsParam, groupByParam, pageQuery } from './queryParams.js';

/**
 * The queries of the analytics routes. The loop and failure routes also take
 * the loop detection thresholds, which the server adds to these objects.
 */

export const FilterQuery = z.object(FILTER_QUERY).strict();
export type FilterQuery = z.output<typeof FilterQuery>;

export const ReliabilitySummaryQuery = z
  .object({
    ...FILTER_QUERY,
    whatIfTarget: z.coerce
      .number()
      .gt(0)
      .lte(1)
      .default(0.99)
      .describe('the p(s) each step is raised to in the what-if ranking'),
  })
  .strict();

const LatencyGroupBy = groupByParam(LATENCY_GROUP_BYS).describe('step name, tool, model, agent, or whole runs');
/** `exact`: nearest-rank percentiles up to the exact limit (reads every value); `sketch`: DDSketch percentiles (±1%) for every group, read from the per-minute rollup where the filters allow. */
export const LatencyPrecision = z
  .enum(['exact', 'sketch'])
  .default('exact')
  .describe(
    'exact: nearest rank up to 1,000,000 values per group; sketch: DDSketch (±1%) for every group, from rollups',
  );
export const LatencyPercentilesQuery = z
  .object({ ...FILTER_QUERY, groupBy: LatencyGroupBy.default('run'), precision: LatencyPrecision })
  .strict();
export const LatencySeriesQuery = z
  .object({
    ...FILTER_QUERY,
    groupBy: LatencyGroupBy.default('run'),
    precision: LatencyPrecision,
    interval: IntervalParam,
    top: z.coerce.number().int().min(1).max(50).default(10).describe('series for this many largest groups'),
  })
  .strict();

export const CostBreakdownQuery = z
  .object({
    ...FILTER_QUERY,
    groupBy: groupByParam(COST_GROUP_BYS).default('model').describe('step name, tool or model'),
  })
  .strict();
export const SeriesQuery = z.object({ ...FILTER_QUERY, interval: IntervalParam }).strict();
export const RunsOfFilterQuery = z.object({ ...FILTER_QUERY, runIds: RunIdsParam.optional() }).strict();

export const LoopsQuery = z
  .object({
    ...FILTER_QUERY,
    kind: z
      .enum(LOOP_KINDS, { error: `kind is one of ${LOOP_KINDS.join(', ')}` })
      .optional()
      .describe('only detections of this kind'),
    orderBy: z
      .enum(LOOP_ORDERS, { error: `orderBy is one of ${LOOP_ORDERS.join(', ')}` })
      .default('recent')
      .describe('page order'),
    ...pageQuery(500, 50),
    runIds: RunIdsParam.optional(),
  })
  .strict();
