import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query';
import type { AnalyticsQuery, AnalyticsResponse, AnalyticsRoute } from '../api/analyticsApi';
import { fetchAnalytics } from '../api/analyticsApi';

/**
 * One analytics route for one query; the previous answer stays on screen while
 * a changed filter loads. `enabled: false` holds the request back.
 */
export function useAnalytics<R extends AnalyticsRoute>(route: R, query: AnalyticsQuery, enabled = true) {
  return useQuery({
    queryKey: ['analytics', route, query],
    queryFn: ({ signal }): Promise<AnalyticsResponse<R>> => fetchAnalytics(route, query, { signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** The same route for several queries at once (e.g. one per time bucket). */
export function useAnalyticsMany<R extends AnalyticsRoute>(route: R, queries: readonly AnalyticsQuery[]) {
  return useQueries({
    queries: queries.map((query) => ({
      queryKey: ['analytics', route, query],
      queryFn: ({ signal }: { signal: AbortSignal }): Promise<AnalyticsResponse<R>> =>
        fetchAnalytics(route, query, { signal }),
    })),
  });
}
