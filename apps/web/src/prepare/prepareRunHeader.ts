import type { RunOutcome, RunSummary } from '@telltale/api-contract';
import { formatCount, formatDuration, formatIso, formatTimestamp, formatTokens, formatUsd } from '../format';
import { OUTCOME_SWATCHES } from '../palette';
import { unixNanosToEpochMillis } from '../units';
import { prepareRunError, type RunError } from './prepareRunError';
import { runSessionHref } from './sessionsFilters';

export interface RunStat {
  label: string;
  value: string;
  title?: string;
}

export interface RunHeader {
  runId: string;
  traceId: string;
  name: string;
  service: string;
  outcome: RunOutcome;
  outcomeLabel: string;
  outcomeColor: string;
  error: RunError;
  /** The run's session ('' for none) and the runs list filtered to it, in a window that holds this run. */
  sessionId: string;
  sessionHref: string;
  stats: RunStat[];
}

export function prepareRunHeader(run: RunSummary, timeZone?: string, nowMs: number = Date.now()): RunHeader {
  const swatch = OUTCOME_SWATCHES[run.outcome];
  return {
    runId: run.runId,
    traceId: run.traceId,
    name: run.name || run.runId,
    service: run.service,
    outcome: run.outcome,
    outcomeLabel: swatch.label,
    outcomeColor: swatch.color,
    error: prepareRunError(run.outcome, run.errorType),
    sessionId: run.sessionId,
    sessionHref:
      run.sessionId === '' ? '' : runSessionHref(run.sessionId, unixNanosToEpochMillis(run.startTimeUnixNano), nowMs),
    stats: [
      {
        label: 'Started',
        value: formatTimestamp(run.startTimeUnixNano, timeZone),
        title: formatIso(run.startTimeUnixNano),
      },
      { label: 'Duration', value: formatDuration(run.durationNs) },
      { label: 'Steps', value: formatCount(run.steps) },
      { label: 'Spans', value: formatCount(run.spans) },
      { label: 'Cost', value: formatUsd(run.costUsd) },
      {
        label: 'Tokens',
        value: formatTokens(run.inputTokens + run.outputTokens),
        title: `${formatCount(run.inputTokens)} in / ${formatCount(run.outputTokens)} out`,
      },
    ],
  };
}
