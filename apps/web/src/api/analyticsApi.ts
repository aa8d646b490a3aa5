import type { z } from 'zod';
import type { RequestOptions } from './getJson';
import { getJson } from './getJson';
import { API_BASE } from './runsApi';
import {
  compoundingCurveSchema,
  costBreakdownSchema,
  costSeriesSchema,
  costSummarySchema,
  failureBreakdownSchema,
  latencyPercentilesSchema,
  latencySeriesSchema,
  loopRateSchema,
  loopsReportSchema,
  reliabilitySummarySchema,
  runCausesSchema,
  runHistogramSchema,
  runLoopFlagsSchema,
  tailAttributionSchema,
} from '@telltale/api-contract';

/** Query parameters as the API takes them (the shared filters plus the route's own). */
export type AnalyticsQuery = Readonly<Record<string, string | number | undefined>>;

/** `/api/v1/<path>?…` with empty values left out. */
export function analyticsUrl(path: string, query: AnalyticsQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== '') params.set(key, String(value));
  const text = params.toString();
  return `${API_BASE}/${path}${text === '' ? '' : `?${text}`}`;
}

/** The analytics routes the dashboard reads, each with its response schema. */
export const ANALYTICS_ROUTES = {
  reliabilitySummary: { path: 'reliability/summary', schema: reliabilitySummarySchema },
  reliabilityCurve: { path: 'reliability/curve', schema: compoundingCurveSchema },
  latencyPercentiles: { path: 'latency/percentiles', schema: latencyPercentilesSchema },
  latencySeries: { path: 'latency/series', schema: latencySeriesSchema },
  latencyTail: { path: 'latency/tail', schema: tailAttributionSchema },
  latencyHistogram: { path: 'latency/histogram', schema: runHistogramSchema },
  costHistogram: { path: 'cost/histogram', schema: runHistogramSchema },
  loops: { path: 'loops', schema: loopsReportSchema },
  loopRate: { path: 'loops/rate', schema: loopRateSchema },
  loopRuns: { path: 'loops/runs', schema: runLoopFlagsSchema },
  costSummary: { path: 'cost/summary', schema: costSummarySchema },
  costBreakdown: { path: 'cost/breakdown', schema: costBreakdownSchema },
  costSeries: { path: 'cost/series', schema: costSeriesSchema },
  failures: { path: 'failures', schema: failureBreakdownSchema },
  failureRuns: { path: 'failures/runs', schema: runCausesSchema },
} as const;

export type AnalyticsRoute = keyof typeof ANALYTICS_ROUTES;
export type AnalyticsResponse<R extends AnalyticsRoute> = z.output<(typeof ANALYTICS_ROUTES)[R]['schema']>;

export function fetchAnalytics<R extends AnalyticsRoute>(
  route: R,
  query: AnalyticsQuery,
  options?: RequestOptions,
): Promise<AnalyticsResponse<R>> {
  const { path, schema } = ANALYTICS_ROUTES[route];
  return getJson(analyticsUrl(path, query), schema, options) as Promise<AnalyticsResponse<R>>;
}
