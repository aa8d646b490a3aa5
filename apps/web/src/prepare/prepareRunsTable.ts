import { type FailureCause, LOOP_KIND_SHORT_LABELS, type LoopKind } from '@telltale/semconv';
import type { RunOutcome, RunSummary } from '@telltale/api-contract';
import { formatCount, formatDuration, formatIso, formatTimestamp, formatTokens, formatUsd } from '../format';
import { OUTCOME_SWATCHES } from '../palette';
import { prepareRunError, type RunError } from './prepareRunError';
import { sessionRunsHref, shortSessionId } from './sessionsFilters';

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
  error: RunError;
  /** The failed run's primary cause ('' when not failed or not known yet). */
  cause: FailureCause | '';
  causeLabel: string;
  /** Loop kinds detected in the run (empty: no loop). */
  loopKinds: readonly LoopKind[];
  loopLabel: string;
  /** The run's session ('' for none), shortened for the cell, and the runs list filtered to it. */
  sessionId: string;
  sessionLabel: string;
  sessionHref: string;
}

/** What the analytics say about the runs on a page: failure causes and loop flags by run id. */
export interface RunAnnotations {
  causes?: ReadonlyMap<string, FailureCause>;
  loops?: ReadonlyMap<string, readonly LoopKind[]>;
}

const CAUSE_TEXT: Readonly<Record<FailureCause, string>> = {
  loop: 'loop',
  partial_execution: 'partial execution',
  tool_failure: 'tool failure',
  validation_exhausted: 'validation exhausted',
  llm_error: 'LLM error',
  timeout: 'timeout',
  unknown: 'unknown',
};

export function runHref(runId: string): string {
  return `/runs/${encodeURIComponent(runId)}`;
}

/**
 * One display-ready row per run, in the order the server sent them (newest
 * first); session links keep the window and service of `currentSearch`.
 */
export function prepareRunsTable(
  runs: readonly RunSummary[],
  timeZone?: string,
  annotations: RunAnnotations = {},
  currentSearch = '',
): RunsTableRow[] {
  return runs.map((run) => {
    const swatch = OUTCOME_SWATCHES[run.outcome];
    const cause = run.outcome === 'failure' ? (annotations.causes?.get(run.runId) ?? '') : '';
    const loopKinds = annotations.loops?.get(run.runId) ?? [];
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
      error: prepareRunError(run.outcome, run.errorType),
      cause,
      causeLabel: cause === '' ? '' : CAUSE_TEXT[cause],
      loopKinds,
      loopLabel: loopKinds.map((k) => LOOP_KIND_SHORT_LABELS[k]).join(', '),
      sessionId: run.sessionId,
      sessionLabel: shortSessionId(run.sessionId),
      sessionHref: run.sessionId === '' ? '' : sessionRunsHref(run.sessionId, currentSearch),
    };
  });
}
