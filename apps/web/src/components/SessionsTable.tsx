import type { MouseEvent } from 'react';
import { Link } from 'react-router';
import type { SessionsTableRow } from '../prepare/prepareSessionsTable';

/** The sessions list; a click anywhere on a row opens the session's runs. */
export function SessionsTable({
  rows,
  onOpen,
  stale,
}: {
  rows: readonly SessionsTableRow[];
  onOpen: (row: SessionsTableRow) => void;
  stale: boolean;
}) {
  // The id cell's link is the keyboard and middle-click path; the row click is a convenience.
  const open = (row: SessionsTableRow) => (e: MouseEvent) => {
    if (e.target instanceof Element && e.target.closest('a')) return;
    onOpen(row);
  };
  return (
    <div className={stale ? 'table-wrap stale' : 'table-wrap'}>
      <table className="table sessions-table" data-testid="sessions-table">
        <thead>
          <tr>
            <th scope="col">Session</th>
            <th scope="col">Runs</th>
            <th scope="col">First start</th>
            <th scope="col">Last end</th>
            <th scope="col" className="num">
              Duration
            </th>
            <th scope="col" className="num">
              Cost
            </th>
            <th scope="col" className="num">
              Tokens
            </th>
            <th scope="col">Agents</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr
              key={row.sessionId}
              className="clickable"
              data-testid="session-row"
              data-session-id={row.sessionId}
              data-runs={row.runs}
              data-success={row.successRuns}
              data-failure={row.failureRuns}
              data-incomplete={row.incompleteRuns}
              data-first-start={row.firstStartNs}
              data-last-end={row.lastEndNs}
              data-cost={row.costUsd}
              data-tokens={row.tokens}
              onClick={open(row)}
            >
              <td className="session-cell">
                <Link to={row.href} className="run-name mono" title={row.sessionId} data-testid="session-link">
                  {row.sessionLabel}
                </Link>
                {row.servicesLabel && <span className="muted run-id">{row.servicesLabel}</span>}
              </td>
              <td>
                <span className="session-runs">
                  <strong>{row.runsLabel}</strong>
                  {row.outcomes.map((o) => (
                    <span
                      key={o.outcome}
                      className={`session-outcome outcome-${o.outcome}`}
                      title={`${o.runsLabel} ${o.label.toLowerCase()}`}
                    >
                      <span className="badge-dot" aria-hidden="true" style={{ background: o.color }} />
                      {o.runsLabel}
                    </span>
                  ))}
                </span>
              </td>
              <td className="nowrap">
                <time dateTime={row.firstStartIso} title={row.firstStartIso}>
                  {row.firstStartLabel}
                </time>
              </td>
              <td className="nowrap">
                <time dateTime={row.lastEndIso} title={row.lastEndIso}>
                  {row.lastEndLabel}
                </time>
              </td>
              <td className="num">{row.durationLabel}</td>
              <td className="num">{row.costLabel}</td>
              <td className="num" title={row.tokensTitle}>
                {row.tokensLabel}
              </td>
              <td>{row.agentsLabel || <span className="muted">—</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
