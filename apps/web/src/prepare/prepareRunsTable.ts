import type { RunOutcome, RunSummary } from '../api/schemas';
import { formatCount, formatDuration, formatIso, formatTimestamp, formatTokens, formatUsd } from '../format';
import { OUTCOME_SWATCHES } from '../palette';

export interface RunsTableRow {
  runId: string;
  href: string;
  outcome: RunOutcome;
  outcomeLabel: string;
  outcomeColor: string;
  name: string;
  service: string;
  startLabel: string;
  startIso: string;
  durationLabel: string;
  stepsLabel: string;
  costLabel: string;
  tokensLabel: string;
  tokensTitle: string;
  errorType: string;
}

export function runHref(runId: string): string {
  return `/runs/${encodeURIComponent(runId)}`;
}

/** One display-ready row per run, in the order the server sent them (newest first). */
export function prepareRunsTable(runs: readonly RunSummary[], timeZone?: string): RunsTableRow[] {
  return runs.map((run) => {
    const swatch = OUTCOME_SWATCHES[run.outcome];
    return {
      runId: run.runId,
      href: runHref(run.runId),
      outcome: run.outcome,
      outcomeLabel: swatch.label,
      outcomeColor: swatch.color,
      name: run.name || run.runId,
      service: run.service,
      startLabel: formatTimestamp(run.startTimeUnixNano, timeZone),
      startIso: formatIso(run.startTimeUnixNano),
      durationLabel: formatDuration(run.durationNs),
      stepsLabel: formatCount(run.steps),
      costLabel: formatUsd(run.costUsd),
      tokensLabel: formatTokens(run.inputTokens + run.outputTokens),
      tokensTitle: `${formatCount(run.inputTokens)} in / ${formatCount(run.outputTokens)} out`,
      errorType: run.errorType,
    };
  });
}
