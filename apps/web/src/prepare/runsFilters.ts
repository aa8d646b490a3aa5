import type { RunsQuery } from '../api/runsApi';
import type { RunOutcome } from '@telltale/api-contract';
import { runOutcomeSchema } from '@telltale/api-contract';
import type { DashboardFilters, TimeWindow } from './dashboardFilters';

/**
 * The runs list's own URL state — outcome, session and page — on top of the shared
 * dashboard filters (time range, service, …): `/runs?range=7d&service=support&outcome=failure&session=conv-42&page=3`.
 */
export interface RunsFilters {
  outcome: RunOutcome | undefined;
  /** Runs of this session / conversation; `''` for all. */
  session: string;
  /** 1-based. */
  page: number;
}

export const RUNS_PAGE_SIZE = 50;

export const DEFAULT_RUNS_FILTERS: RunsFilters = { outcome: undefined, session: '', page: 1 };

/** The API takes session ids of at most this many characters; a longer one cannot match. */
const MAX_SESSION_LENGTH = 512;

export function parseRunsFilters(search: URLSearchParams): RunsFilters {
  const outcome = runOutcomeSchema.safeParse(search.get('outcome'));
  const page = Number(search.get('page'));
  return {
    outcome: outcome.success ? outcome.data : undefined,
    session: (search.get('session')?.trim() ?? '').slice(0, MAX_SESSION_LENGTH),
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
  };
}

/** Writes the runs filters into `base` (the shared filters kept), leaving defaults out. */
export function runsFiltersToSearch(
  filters: RunsFilters,
  base: URLSearchParams = new URLSearchParams(),
): URLSearchParams {
  const search = new URLSearchParams(base);
  search.delete('outcome');
  search.delete('session');
  search.delete('page');
  if (filters.outcome) search.set('outcome', filters.outcome);
  if (filters.session !== '') search.set('session', filters.session);
  if (filters.page > 1) search.set('page', String(filters.page));
  return search;
}

/** Change filters; any change other than the page itself goes back to page 1. */
export function updateRunsFilters(current: RunsFilters, change: Partial<RunsFilters>): RunsFilters {
  const next = { ...current, ...change };
  const narrowed = next.outcome !== current.outcome || next.session !== current.session;
  return narrowed && change.page === undefined ? { ...next, page: 1 } : next;
}

/** The `/runs` query for a page: the window and name filters of the shared filters, outcome, session and page of its own. */
export function runsFiltersToQuery(
  filters: RunsFilters,
  shared: DashboardFilters,
  window: TimeWindow,
  pageSize = RUNS_PAGE_SIZE,
): RunsQuery {
  return {
    limit: pageSize,
    offset: (filters.page - 1) * pageSize,
    outcome: filters.outcome,
    service: shared.service || undefined,
    agent: shared.agent || undefined,
    step: shared.step || undefined,
    tool: shared.tool || undefined,
    model: shared.model || undefined,
    session: filters.session || undefined,
    from: String(window.fromMs),
    to: String(window.toMs),
  };
}
