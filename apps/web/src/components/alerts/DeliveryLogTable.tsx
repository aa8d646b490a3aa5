import { Fragment } from 'react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { AttemptRow, NotificationRow } from '../../prepare/prepareAlertDelivery';
import { AlertStateBadge } from './AlertStateBadge';

/** The delivery log: one row per notification; the open one shows `detail` (its attempts) below it. */
export function DeliveryLogTable({
  rows,
  openId,
  detail,
  onToggle,
  stale = false,
}: {
  rows: readonly NotificationRow[];
  openId: string | undefined;
  detail: ReactNode;
  onToggle: (id: string) => void;
  stale?: boolean;
}) {
  return (
    <div className={stale ? 'table-wrap stale' : 'table-wrap'}>
      <table className="table" data-testid="delivery-log-table">
        <thead>
          <tr>
            <th scope="col">Created</th>
            <th scope="col">Notification</th>
            <th scope="col">Destination</th>
            <th scope="col">Delivery</th>
            <th scope="col" className="num">
              Attempts
            </th>
            <th scope="col">Last error</th>
            <th scope="col" />
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <Fragment key={row.id}>
              <tr
                data-testid="notification-row"
                data-notification-id={row.id}
                data-kind={row.kind}
                data-state={row.tone}
              >
                <td className="nowrap">{row.createdLabel}</td>
                <td className="alert-rule-cell">
                  <span className="alert-kind">{row.kind}</span>{' '}
                  {row.ruleHref ? <Link to={row.ruleHref}>{row.subject}</Link> : row.subject}
                  {row.groupLabel && <span className="muted small alert-subline">{row.groupLabel}</span>}
                  <span className="mono muted small alert-subline">{row.id}</span>
                </td>
                <td>{row.destinationName}</td>
                <td>
                  <AlertStateBadge tone={row.tone} label={row.stateLabel} />
                  {row.whenLabel && <span className="muted small alert-subline">{row.whenLabel}</span>}
                </td>
                <td className="num">{row.attemptsLabel}</td>
                <td className="small">{row.lastError}</td>
                <td>
                  <button
                    type="button"
                    className="button"
                    aria-expanded={openId === row.id}
                    onClick={() => onToggle(row.id)}
                    data-testid="notification-toggle"
                  >
                    {openId === row.id ? 'Hide' : 'Attempts'}
                  </button>
                </td>
              </tr>
              {openId === row.id && (
                <tr className="alert-detail-row">
                  <td colSpan={7}>{detail}</td>
                </tr>
              )}
            </Fragment>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Every HTTP attempt of one notification. */
export function AttemptsTable({ rows }: { rows: readonly AttemptRow[] }) {
  if (rows.length === 0) return <p className="muted small">No attempt yet.</p>;
  return (
    <table className="table alert-attempts" data-testid="attempts-table">
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">At</th>
          <th scope="col">Outcome</th>
          <th scope="col">Response</th>
          <th scope="col" className="num">
            Took
          </th>
          <th scope="col">Error</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key} data-testid="attempt-row" data-outcome={row.tone}>
            <td>{row.attempt}</td>
            <td className="nowrap">{row.atLabel}</td>
            <td>
              <AlertStateBadge tone={row.tone} label={row.outcome} />
            </td>
            <td>{row.statusLabel}</td>
            <td className="num">{row.durationLabel}</td>
            <td className="small">{row.error}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
