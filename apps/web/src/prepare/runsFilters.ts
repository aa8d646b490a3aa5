import type { RunsQuery } from '../api/runsApi';
import type { RunOutcome } from '../api/schemas';
import { runOutcomeSchema } from '../api/schemas';

/**
 * The runs list's filters and page, kept in the URL query string so a view can
 * be shared: `/runs?outcome=failure&service=support&page=3`.
 */
export interface RunsFilters {
  outcome: RunOutcome | undefined;
  service: string;
  /** 1-based. */
  page: number;
  /** Passed through to the API untouched (ISO-8601 or unix ms). */
  from: string | undefined;
  to: string | undefined;
}

export const RUNS_PAGE_SIZE = 50;

export const DEFAULT_RUNS_FILTERS: RunsFilters = { outcome: undefined, service: '', page: 1, from: undefined, to: undefined };

export function parseRunsFilters(search: URLSearchParams): RunsFilters {
  const outcome = runOutcomeSchema.safeParse(search.get('outcome'));
  const page = Number(search.get('page'));
  return {
    outcome: outcome.success ? outcome.data : undefined,
    service: search.get('service')?.trim() ?? '',
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
    from: search.get('from') || undefined,
    to: search.get('to') || undefined,
  };
}

/** The query string for `filters`, leaving defaults out so URLs stay short. */
export function runsFiltersToSearch(filters: RunsFilters): URLSearchParams {
  const search = new URLSearchParams();
  if (filters.outcome) search.set('outcome', filters.outcome);
  if (filters.service) search.set('service', filters.service);
  if (filters.from) search.set('from', filters.from);
  if (filters.to) search.set('to', filters.to);
  if (filters.page > 1) search.set('page', String(filters.page));
  return search;
}

/** Change filters; any change other than the page itself goes back to page 1. */
export function updateRunsFilters(current: RunsFilters, change: Partial<RunsFilters>): RunsFilters {
  const next = { ...current, ...change };
  const filtersChanged =
    next.outcome !== current.outcome || next.service !== current.service || next.from !== current.from || next.to !== current.to;
  return filtersChanged && change.page === undefined ? { ...next, page: 1 } : next;
}

export function runsFiltersToQuery(filters: RunsFilters, pageSize = RUNS_PAGE_SIZE): RunsQuery {
  return {
    limit: pageSize,
    offset: (filters.page - 1) * pageSize,
    outcome: filters.outcome,
    service: filters.service || undefined,
    from: filters.from,
    to: filters.to,
  };
}
