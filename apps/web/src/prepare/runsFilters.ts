import type { RunsQuery } from '../api/runsApi';
import type { RunOutcome } from '../api/schemas';
import { runOutcomeSchema } from '../api/schemas';
import type { DashboardFilters, TimeWindow } from './dashboardFilters';

/**
 * The runs list's own URL state — outcome and page — on top of the shared
 * dashboard filters (time range, service, …): `/runs?range=7d&service=support&outcome=failure&page=3`.
 */
export interface RunsFilters {
  outcome: RunOutcome | undefined;
  /** 1-based. */
  page: number;
}

export const RUNS_PAGE_SIZE = 50;

export const DEFAULT_RUNS_FILTERS: RunsFilters = { outcome: undefined, page: 1 };

export function parseRunsFilters(search: URLSearchParams): RunsFilters {
  const outcome = runOutcomeSchema.safeParse(search.get('outcome'));
  const page = Number(search.get('page'));
  return {
    outcome: outcome.success ? outcome.data : undefined,
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
  };
}

/** Writes the runs filters into `base` (the shared filters kept), leaving defaults out. */
export function runsFiltersToSearch(filters: RunsFilters, base: URLSearchParams = new URLSearchParams()): URLSearchParams {
  const search = new URLSearchParams(base);
  search.delete('outcome');
  search.delete('page');
  if (filters.outcome) search.set('outcome', filters.outcome);
  if (filters.page > 1) search.set('page', String(filters.page));
  return search;
}

/** Change filters; any change other than the page itself goes back to page 1. */
export function updateRunsFilters(current: RunsFilters, change: Partial<RunsFilters>): RunsFilters {
  const next = { ...current, ...change };
  return next.outcome !== current.outcome && change.page === undefined ? { ...next, page: 1 } : next;
}

/** The `/runs` query for a page: the window and name filters of the shared filters, outcome and page of its own. */
export function runsFiltersToQuery(filters: RunsFilters, shared: DashboardFilters, window: TimeWindow, pageSize = RUNS_PAGE_SIZE): RunsQuery {
  return {
    limit: pageSize,
    offset: (filters.page - 1) * pageSize,
    outcome: filters.outcome,
    service: shared.service || undefined,
    agent: shared.agent || undefined,
    step: shared.step || undefined,
    tool: shared.tool || undefined,
    model: shared.model || undefined,
    from: String(window.fromMs),
    to: String(window.toMs),
  };
}
