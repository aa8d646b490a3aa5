import {
  CostBreakdownQuery,
  FilterQuery,
  LatencyPercentilesQuery,
  LatencySeriesQuery,
  LoopsQuery,
  ReliabilitySummaryQuery,
  RunsOfFilterQuery,
  SeriesQuery,
} from './analyticsQueries.js';
import {
  compoundingCurveSchema,
  costBreakdownSchema,
  costSeriesSchema,
  costSummarySchema,
  failureBreakdownSchema,
  failureSeriesSchema,
  latencyPercentilesSchema,
  latencySeriesSchema,
  loopRateSchema,
  loopsReportSchema,
  reliabilitySummarySchema,
  runCausesSchema,
  runHistogramSchema,
  runLoopFlagsSchema,
  tailAttributionSchema,
} from './analyticsResponses.js';
import { HistogramQuery } from './queryParams.js';
import type { RouteContract } from './RouteContract.js';

/** The analytics routes (reliability, latency, loops, failures, cost). The loop and failure routes also take the loop thresholds. */
export const AnalyticsRoutes = {
  'get /reliability/summary': {
    method: 'get',
    path: '/reliability/summary',
    query: ReliabilitySummaryQuery,
    response: reliabilitySummarySchema,
  },
  'get /reliability/curve': {
    method: 'get',
    path: '/reliability/curve',
    query: FilterQuery,
    response: compoundingCurveSchema,
  },
  'get /latency/percentiles': {
    method: 'get',
    path: '/latency/percentiles',
    query: LatencyPercentilesQuery,
    response: latencyPercentilesSchema,
  },
  'get /latency/series': {
    method: 'get',
    path: '/latency/series',
    query: LatencySeriesQuery,
    response: latencySeriesSchema,
  },
  'get /latency/tail': { method: 'get', path: '/latency/tail', query: FilterQuery, response: tailAttributionSchema },
  'get /latency/histogram': {
    method: 'get',
    path: '/latency/histogram',
    query: HistogramQuery,
    response: runHistogramSchema,
  },
  'get /loops': { method: 'get', path: '/loops', query: LoopsQuery, response: loopsReportSchema },
  'get /loops/rate': { method: 'get', path: '/loops/rate', query: SeriesQuery, response: loopRateSchema },
  'get /loops/runs': { method: 'get', path: '/loops/runs', query: RunsOfFilterQuery, response: runLoopFlagsSchema },
  'get /failures': { method: 'get', path: '/failures', query: FilterQuery, response: failureBreakdownSchema },
  'get /failures/series': {
    method: 'get',
    path: '/failures/series',
    query: SeriesQuery,
    response: failureSeriesSchema,
  },
  'get /failures/runs': { method: 'get', path: '/failures/runs', query: RunsOfFilterQuery, response: runCausesSchema },
  'get /cost/summary': { method: 'get', path: '/cost/summary', query: FilterQuery, response: costSummarySchema },
  'get /cost/breakdown': {
    method: 'get',
    path: '/cost/breakdown',
    query: CostBreakdownQuery,
    response: costBreakdownSchema,
  },
  'get /cost/histogram': {
    method: 'get',
    path: '/cost/histogram',
    query: HistogramQuery,
    response: runHistogramSchema,
  },
  'get /cost/series': { method: 'get', path: '/cost/series', query: SeriesQuery, response: costSeriesSchema },
} as const satisfies Record<string, RouteContract>;
