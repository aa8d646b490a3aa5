import type { RequestOptions } from './getJson';
import { getJson } from './getJson';
import type { RunDetail, RunOutcome, RunsPage } from '@telltale/api-contract';
import { runDetailSchema, runsPageSchema } from '@telltale/api-contract';

export const API_BASE = '/api/v1';

/** Query parameters of `GET /api/v1/runs`; empty values are left out of the URL. */
export interface RunsQuery {
  limit: number;
  offset: number;
  outcome?: RunOutcome | undefined;
  service?: string | undefined;
  agent?: string | undefined;
  /** Runs containing a step with this name / a call of this tool / of this model. */
  step?: string | undefined;
  tool?: string | undefined;
  model?: string | undefined;
  /** Runs of this session / conversation. */
  session?: string | undefined;
  /** ISO-8601 or unix milliseconds, passed through as given. */
  from?: string | undefined;
  to?: string | undefined;
}

export function runsUrl(query: RunsQuery): string {
  const params = new URLSearchParams({ limit: String(query.limit), offset: String(query.offset) });
  if (query.outcome) params.set('outcome', query.outcome);
  if (query.service) params.set('service', query.service);
  if (query.agent) params.set('agent', query.agent);
  if (query.step) params.set('step', query.step);
  if (query.tool) params.set('tool', query.tool);
  if (query.model) params.set('model', query.model);
  if (query.session) params.set('session', query.session);
  if (query.from) params.set('from', query.from);
  if (query.to) params.set('to', query.to);
  return `${API_BASE}/runs?${params.toString()}`;
}

export function runUrl(runId: string): string {
  return `${API_BASE}/runs/${encodeURIComponent(runId)}`;
}

export function fetchRuns(query: RunsQuery, options?: RequestOptions): Promise<RunsPage> {
  return getJson(runsUrl(query), runsPageSchema, options);
}

export function fetchRun(runId: string, options?: RequestOptions): Promise<RunDetail> {
  return getJson(runUrl(runId), runDetailSchema, options);
}
