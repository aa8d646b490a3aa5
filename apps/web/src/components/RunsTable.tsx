import type { MouseEvent } from 'react';
import { Link } from 'react-router';
import type { RunsTableRow } from '../prepare/prepareRunsTable';
import { OutcomeBadge } from './OutcomeBadge';

/**
 * The runs list; a click anywhere on a row opens the run. `annotated`: the
 * causes and loop flags of the rows have arrived (shown as `data-annotations`).
 */
export function RunsTable({
  rows,
  onOpen,
  stale,
  annotated = true,
}: {
  rows: readonly RunsTableRow[];
  onOpen: (row: RunsTableRow) => void;
  stale: boolean;
  annotated?: boolean;
}) {
  // The name cell's link is the keyboard and middle-click path; the row click is a convenience.
  const open = (row: RunsTableRow) => (e: MouseEvent) => {
    if (e.target instanceof Element && e.target.closest('a')) return;
    onOpen(row);
  };
  return (
    <div className={stale ? 'table-wrap stale' : 'table-wrap'}>
      <table className="table runs-table" data-testid="runs-table" data-annotations={annotated ? 'ready' : 'loading'}>
        <thead>
          <tr>
            <th scope="col">Outcome</th>
            <th scope="col">Run</th>
            <th scope="col">Service</th>
            <th scope="col">Session</th>
            <th scope="col">Started</th>
            <th scope="col" className="num">
              Duration
            </th>
            <th scope="col" className="num">
              Steps
            </th>
            <th scope="col" className="num">
              Cost
            </th>
            <th scope="col" className="num">
              Tokens
            </th>
            <th scope="col">Cause</th>
            <th scope="col">Loop</th>
            <th scope="col">Error</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr
              key={row.runId}
              className="clickable"
              data-testid="run-row"
              data-run-id={row.runId}
              data-outcome={row.outcome}
              data-cause={row.cause}
              data-loop={row.loopKinds.join(',')}
              data-session-id={row.sessionId}
              onClick={open(row)}
            >
              <td>
                <OutcomeBadge outcome={row.outcome} label={row.outcomeLabel} />
              </td>
              <td className="run-name-cell">
                <Link to={row.href} className="run-name">
                  {row.name}
                </Link>
                <span className="mono muted run-id" title={row.runId}>
                  {row.runId}
                </span>
              </td>
              <td>{row.service}</td>
              <td className="nowrap">
                {row.sessionId ? (
                  <Link
                    to={row.sessionHref}
                    className="mono session-link"
                    title={row.sessionId}
                    data-testid="run-session-link"
                  >
                    {row.sessionLabel}
                  </Link>
                ) : (
                  <span className="muted">—</span>
                )}
              </td>
              <td className="nowrap">
                <time dateTime={row.startIso} title={row.startIso}>
                  {row.startLabel}
                </time>
              </td>
              <td className="num">{row.durationLabel}</td>
              <td className="num">{row.stepsLabel}</td>
              <td className="num">{row.costLabel}</td>
              <td className="num" title={row.tokensTitle}>
                {row.tokensLabel}
              </td>
              <td>
                {row.causeLabel ? (
                  <span className="cause-chip">{row.causeLabel}</span>
                ) : (
                  <span className="muted">—</span>
                )}
              </td>
              <td>
                {row.loopLabel ? (
                  <span className="loop-chip">⟳ {row.loopLabel}</span>
                ) : (
                  <span className="muted">—</span>
                )}
              </td>
              <td>
                {row.error.errorType ? (
                  <span
                    className={row.error.recovered ? 'error-type recovered' : 'error-type'}
                    title={`${row.error.errorLabel} ${row.error.errorType}`}
                    data-testid="run-error-type"
                  >
                    {row.error.errorType}
                  </span>
                ) : (
                  <span className="muted">—</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
