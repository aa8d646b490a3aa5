import { parseDuration } from './parseDuration.js';

export const DEFAULT_ENDPOINT = 'http://127.0.0.1:4318';

/** Options `report` and `check` share. */
export interface CommonOptions {
  endpoint: string;
  since: string;
  agent?: string;
  apiKey?: string;
}

/** The window `--since` names, ending now, as the API's `from`/`to` (unix ms), plus the filter. */
export function windowQuery(opts: CommonOptions, nowMs = Date.now()): { from: number; to: number; agent?: string } {
  const sinceMs = parseDuration(opts.since, '--since');
  return { from: Math.floor(nowMs - sinceMs), to: nowMs, ...(opts.agent === undefined ? {} : { agent: opts.agent }) };
}
