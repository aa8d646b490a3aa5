import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { DashboardFilters, TimeWindow } from '../prepare/dashboardFilters';
import { analyticsParams, filtersToSearch, parseFilters, resolveWindow } from '../prepare/dashboardFilters';

/**
 * The shared filters from the URL, the window they select (presets end at the
 * next whole minute) and the API parameters for it; `setFilters` writes the URL.
 */
export function useDashboardFilters() {
  const [search, setSearch] = useSearchParams();
  const filters = useMemo(() => parseFilters(search), [search]);
  const minute = Math.floor(Date.now() / 60_000);
  const window: TimeWindow = useMemo(() => resolveWindow(filters, minute * 60_000), [filters, minute]);
  const params = useMemo(() => analyticsParams(filters, window), [filters, window]);
  const setFilters = (change: Partial<DashboardFilters>, replace = false): void => {
    setSearch(
      (current) => {
        const next = filtersToSearch({ ...parseFilters(current), ...change }, current);
        next.delete('page');
        return next;
      },
      { replace },
    );
  };
  return { filters, window, params, setFilters, search };
}
