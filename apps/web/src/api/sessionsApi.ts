import type { RequestOptions } from './getJson';
import { getJson } from './getJson';
import { API_BASE } from './runsApi';
import type { SessionsPage } from '@telltale/api-contract';
import { sessionsPageSchema } from '@telltale/api-contract';

/** Query parameters of `GET /api/v1/sessions`; empty values are left out of the URL. */
export interface SessionsQuery {
  limit: number;
  offset: number;
  service?: string | undefined;
  /** ISO-8601 or unix milliseconds, passed through as given. */
  from?: string | undefined;
  to?: string | undefined;
}

export function sessionsUrl(query: SessionsQuery): string {
  const params = new URLSearchParams({ limit: String(query.limit), offset: String(query.offset) });
  if (query.service) params.set('service', query.service);
  if (query.from) params.set('from', query.from);
  if (query.to) params.set('to', query.to);
  return `${API_BASE}/sessions?${params.toString()}`;
}

export function fetchSessions(query: SessionsQuery, options?: RequestOptions): Promise<SessionsPage> {
  return getJson(sessionsUrl(query), sessionsPageSchema, options);
}
