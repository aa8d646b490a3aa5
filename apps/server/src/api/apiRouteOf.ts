import { API_ROUTES } from '@telltale/api-contract';

/** Where the API routes are mounted (createApiApp), and the OpenAPI document's server URL. */
export const API_BASE = '/api/v1';

/** Every route of the contract as a matcher; routes with fewer parameters first (`/rules/test` before `/rules/:ruleId`). */
const MATCHERS = Object.values(API_ROUTES)
  .map(({ method, path }) => ({
    method: method.toUpperCase(),
    pattern: `${API_BASE}${path}`,
    regex: new RegExp(`^${API_BASE}${path.replace(/:[A-Za-z]+/g, '[^/]+')}/?$`),
    params: path.split(':').length - 1,
  }))
  .sort((a, b) => a.params - b.params);

/**
 * The route pattern (`/api/v1/runs/:runId`) a request names by its method
 * and path (query left out), whether or not it got as far as its route: a
 * request refused for its key (401, 403) still counts under its route.
 * Undefined when it names none.
 */
export function apiRouteOf(method: string | undefined, url: string | undefined): string | undefined {
  if (method === undefined || url === undefined) return undefined;
  const path = url.split('?', 1)[0]!;
  const upper = method.toUpperCase();
  for (const m of MATCHERS) if (m.method === upper && m.regex.test(path)) return m.pattern;
  return undefined;
}
