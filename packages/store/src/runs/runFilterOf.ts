import type { AnalyticsFilter } from '../analytics/AnalyticsFilter.js';
import type { RunFilter } from './RunSummary.js';

/** The runs list's filter for an analytics filter: the run-level filters the two share. */
export function runFilterOf(f: AnalyticsFilter): RunFilter {
  return {
    projectId: f.projectId,
    fromUnixNano: f.fromUnixNano,
    toUnixNano: f.toUnixNano,
    ...(f.agent === undefined ? {} : { agent: f.agent }),
    ...(f.service === undefined ? {} : { service: f.service }),
    ...(f.recompute === undefined ? {} : { recompute: f.recompute }),
  };
}
