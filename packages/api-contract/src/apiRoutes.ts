import { AdminRoutes } from './adminRoutes.js';
import { AlertRoutes } from './alertRoutes.js';
import { AnalyticsRoutes } from './analyticsRoutes.js';
import {
  healthSchema,
  ListRunsQuery,
  ListSessionsQuery,
  openApiDocumentSchema,
  RunIdParams,
  runDetailSchema,
  runsPageSchema,
  sessionsPageSchema,
  TraceIdParams,
  traceSchema,
} from './runs.js';
import { NoQuery } from './queryParams.js';
import {
  ModelParams,
  priceDeletedResponseSchema,
  priceInputSchema,
  priceResponseSchema,
  pricesResponseSchema,
} from './prices.js';
import type { RouteContract } from './RouteContract.js';
import {
  runContentResponseSchema,
  runContentSpansResponseSchema,
  SpanContentParams,
  spanContentResponseSchema,
} from './content.js';

/**
 * Every route of `/api/v1`, keyed by `<method> <path>` (the express path,
 * relative to `/api/v1`). The server registers exactly these; the dashboard
 * parses each answer with the route's `response`.
 */
export const API_ROUTES = {
  'get /health': { method: 'get', path: '/health', query: NoQuery, response: healthSchema },
  'get /openapi.json': { method: 'get', path: '/openapi.json', query: NoQuery, response: openApiDocumentSchema },
  'get /runs': { method: 'get', path: '/runs', query: ListRunsQuery, response: runsPageSchema },
  'get /sessions': { method: 'get', path: '/sessions', query: ListSessionsQuery, response: sessionsPageSchema },
  'get /runs/:runId': {
    method: 'get',
    path: '/runs/:runId',
    query: NoQuery,
    params: RunIdParams,
    response: runDetailSchema,
  },
  'get /runs/:runId/spans/:spanId/content': {
    method: 'get',
    path: '/runs/:runId/spans/:spanId/content',
    query: NoQuery,
    params: SpanContentParams,
    response: spanContentResponseSchema,
  },
  'get /runs/:runId/content': {
    method: 'get',
    path: '/runs/:runId/content',
    query: NoQuery,
    params: RunIdParams,
    response: runContentResponseSchema,
  },
  'get /runs/:runId/content/spans': {
    method: 'get',
    path: '/runs/:runId/content/spans',
    query: NoQuery,
    params: RunIdParams,
    response: runContentSpansResponseSchema,
  },
  'get /traces/:traceId': {
    method: 'get',
    path: '/traces/:traceId',
    query: NoQuery,
    params: TraceIdParams,
    response: traceSchema,
  },
  'get /prices': { method: 'get', path: '/prices', query: NoQuery, response: pricesResponseSchema },
  'put /prices/:model': {
    method: 'put',
    path: '/prices/:model',
    query: NoQuery,
    params: ModelParams,
    body: priceInputSchema,
    response: priceResponseSchema,
  },
  'delete /prices/:model': {
    method: 'delete',
    path: '/prices/:model',
    query: NoQuery,
    params: ModelParams,
    response: priceDeletedResponseSchema,
  },
  ...AnalyticsRoutes,
  ...AdminRoutes,
  ...AlertRoutes,
} as const satisfies Record<string, RouteContract>;

export type ApiRouteKey = keyof typeof API_ROUTES;
