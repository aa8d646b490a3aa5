import type { SessionsQuery } from '../api/sessionsApi';
import type { DashboardFilters, RangePreset, TimeWindow } from './dashboardFilters';
import { DEFAULT_FILTERS, DEFAULT_RANGE, filtersToSearch, parseFilters, resolveWindow } from './dashboardFilters';

/**
 * `/sessions` URL state: the shared time range and service filter (the only
 * name filter the sessions route takes) and the page: `/sessions?range=7d&service=support&page=2`.
 */
export const SESSIONS_PAGE_SIZE = 50;

/** 1-based page from `?page=`; anything else is page 1. */
export function parseSessionsPage(search: URLSearchParams): number {
  const page = Number(search.get('page'));
  return Number.isSafeInteger(page) && page >= 1 ? page : 1;
}

/** Writes the page into `base` (the shared filters kept), leaving page 1 out. */
export function sessionsPageToSearch(page: number, base: URLSearchParams = new URLSearchParams()): URLSearchParams {
  const search = new URLSearchParams(base);
  search.delete('page');
  if (page > 1) search.set('page', String(page));
  return search;
}

/** The `/sessions` query for a page: the window and service of the shared filters. */
export function sessionsQuery(
  page: number,
  shared: DashboardFilters,
  window: TimeWindow,
  pageSize = SESSIONS_PAGE_SIZE,
): SessionsQuery {
  return {
    limit: pageSize,
    offset: (page - 1) * pageSize,
    service: shared.service || undefined,
    from: String(window.fromMs),
    to: String(window.toMs),
  };
}

/** `/runs?session=…` with the window and service of `shared`; the other name filters are dropped, so the list shows the whole session. */
function sessionRunsLink(sessionId: string, shared: DashboardFilters): string {
  const search = filtersToSearch({
    ...DEFAULT_FILTERS,
    range: shared.range,
    fromMs: shared.fromMs,
    toMs: shared.toMs,
    service: shared.service,
  });
  search.set('session', sessionId);
  return `/runs?${search.toString()}`;
}

/** The runs of a session, in the window and service the current page (its query string) shows. */
export function sessionRunsHref(sessionId: string, currentSearch: string | URLSearchParams): string {
  return sessionRunsLink(sessionId, parseFilters(new URLSearchParams(currentSearch)));
}

const WIDER_PRESETS: readonly RangePreset[] = [DEFAULT_RANGE, '7d', '30d'];
const DAY_MS = 24 * 3_600_000;

/**
 * The runs of a run's session, from the run's page (which has no window of its
 * own): the narrowest of 24 h / 7 d / 30 d that still holds the run, else a
 * custom window from a day before the run until now.
 */
export function runSessionHref(sessionId: string, runStartMs: number, nowMs: number): string {
  for (const range of WIDER_PRESETS) {
    const window = resolveWindow({ ...DEFAULT_FILTERS, range }, nowMs);
    if (runStartMs >= window.fromMs) return sessionRunsLink(sessionId, { ...DEFAULT_FILTERS, range });
  }
  const end = resolveWindow(DEFAULT_FILTERS, nowMs).toMs;
  return sessionRunsLink(sessionId, { ...DEFAULT_FILTERS, range: 'custom', fromMs: runStartMs - DAY_MS, toMs: end });
}

/** A session id short enough for a table cell: the first 12 characters, then an ellipsis. */
export function shortSessionId(sessionId: string, max = 12): string {
  return sessionId.length <= max ? sessionId : `${sessionId.slice(0, max)}…`;
}
