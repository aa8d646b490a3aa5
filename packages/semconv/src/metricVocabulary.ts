/**
 * The names the metric queries and the API share, defined once: the store's
 * SQL, the analytics math, the API contract's validation and the dashboard's
 * controls all take their lists from here (RELIABILITY-MATH).
 */

/** What latency percentiles are grouped by (RELIABILITY-MATH "Latency"). */
export const LATENCY_GROUP_BYS = ['step', 'tool', 'model', 'agent', 'run'] as const;
export type LatencyGroupBy = (typeof LATENCY_GROUP_BYS)[number];

/** What a cost breakdown is grouped by. */
export const COST_GROUP_BYS = ['step', 'tool', 'model'] as const;
export type CostGroupBy = (typeof COST_GROUP_BYS)[number];

/** Orders of the loop detections list. */
export const LOOP_ORDERS = ['recent', 'wasted_cost', 'wasted_time'] as const;
export type LoopOrder = (typeof LOOP_ORDERS)[number];

/** Primary failure causes of RELIABILITY-MATH "Failure taxonomy", in priority order. */
export const FAILURE_CAUSES = [
  'loop',
  'partial_execution',
  'tool_failure',
  'validation_exhausted',
  'llm_error',
  'timeout',
  'unknown',
] as const;
export type FailureCause = (typeof FAILURE_CAUSES)[number];
