import type { RunOutcome } from '@telltale/api-contract';
import type { SessionSummary } from '@telltale/api-contract';
import { formatCount, formatDuration, formatIso, formatTimestamp, formatTokens, formatUsd } from '../format';
import { OUTCOME_SWATCHES } from '../palette';
import { nanosBetween } from '../units';
import { sessionRunsHref, shortSessionId } from './sessionsFilters';

/** A session's runs of one outcome (only outcomes it has). */
export interface SessionOutcomeCount {
  outcome: RunOutcome;
  label: string;
  color: string;
  runs: number;
  runsLabel: string;
}

export interface SessionsTableRow {
  sessionId: string;
  sessionLabel: string;
  /** The runs list filtered to this session, in the page's window and service. */
  href: string;
  runs: number;
  runsLabel: string;
  outcomes: SessionOutcomeCount[];
  successRuns: number;
  failureRuns: number;
  incompleteRuns: number;
  firstStartLabel: string;
  firstStartIso: string;
  /** Decimal nanoseconds, as the API sent them. */
  firstStartNs: string;
  lastEndLabel: string;
  lastEndIso: string;
  lastEndNs: string;
  /** First run's start to last run's end. */
  durationLabel: string;
  costUsd: number;
  costLabel: string;
  tokens: number;
  tokensLabel: string;
  tokensTitle: string;
  agentsLabel: string;
  servicesLabel: string;
}

const OUTCOME_ORDER: readonly RunOutcome[] = ['success', 'failure', 'incomplete'];

function outcomeRuns(session: SessionSummary, outcome: RunOutcome): number {
  switch (outcome) {
    case 'success':
      return session.successRuns;
    case 'failure':
      return session.failureRuns;
    case 'incomplete':
      return session.incompleteRuns;
  }
}

/** One display-ready row per session, in the order the server sent them (most recently active first). */
export function prepareSessionsTable(
  sessions: readonly SessionSummary[],
  currentSearch: string | URLSearchParams,
  timeZone?: string,
): SessionsTableRow[] {
  return sessions.map((session) => {
    const tokens = session.inputTokens + session.outputTokens;
    return {
      sessionId: session.sessionId,
      sessionLabel: shortSessionId(session.sessionId, 24),
      href: sessionRunsHref(session.sessionId, currentSearch),
      runs: session.runs,
      runsLabel: formatCount(session.runs),
      outcomes: OUTCOME_ORDER.map((outcome) => ({ outcome, runs: outcomeRuns(session, outcome) }))
        .filter((o) => o.runs > 0)
        .map(({ outcome, runs }) => ({
          outcome,
          runs,
          runsLabel: formatCount(runs),
          label: OUTCOME_SWATCHES[outcome].label,
          color: OUTCOME_SWATCHES[outcome].color,
        })),
      successRuns: session.successRuns,
      failureRuns: session.failureRuns,
      incompleteRuns: session.incompleteRuns,
      firstStartLabel: formatTimestamp(session.firstStartUnixNano, timeZone),
      firstStartIso: formatIso(session.firstStartUnixNano),
      firstStartNs: session.firstStartUnixNano.toString(),
      lastEndLabel: formatTimestamp(session.lastEndUnixNano, timeZone),
      lastEndIso: formatIso(session.lastEndUnixNano),
      lastEndNs: session.lastEndUnixNano.toString(),
      durationLabel: formatDuration(nanosBetween(session.firstStartUnixNano, session.lastEndUnixNano)),
      costUsd: session.costUsd,
      costLabel: formatUsd(session.costUsd),
      tokens,
      tokensLabel: formatTokens(tokens),
      tokensTitle: `${formatCount(session.inputTokens)} in / ${formatCount(session.outputTokens)} out`,
      agentsLabel: session.agents.join(', '),
      servicesLabel: session.services.join(', '),
    };
  });
}
