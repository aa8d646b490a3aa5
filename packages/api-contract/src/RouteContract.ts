import type { z } from 'zod';

export type HttpMethod = 'get' | 'post' | 'put' | 'delete';

/**
 * One route of the API: what it takes and what its 2xx answer holds. The
 * server validates requests with `query`, `params` and `body` and documents
 * `response` in its OpenAPI document; clients parse answers with `response`.
 */
export interface RouteContract<
  Q extends z.ZodObject = z.ZodObject,
  P extends z.ZodObject | undefined = z.ZodObject | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType = z.ZodType,
> {
  method: HttpMethod;
  /** Express path relative to `/api/v1`, e.g. `/runs/:runId`. */
  path: string;
  /** Strict object; `attr` (when present) is filled from `attr.<key>` parameters. */
  query: Q;
  params?: P;
  body?: B;
  response: R;
}
