import { Link } from 'react-router';
import type { HistoryRow } from '../../prepare/prepareAlertHistory';
import { AlertStateBadge } from './AlertStateBadge';

/** State changes, newest first. `showRule` off on a rule's own page. */
export function HistoryTable({
  rows,
  showRule = true,
  stale = false,
}: {
  rows: readonly HistoryRow[];
  showRule?: boolean;
  stale?: boolean;
}) {
  return (
    <div className={stale ? 'table-wrap stale' : 'table-wrap'}>
      <table className="table" data-testid="alert-history-table">
        <thead>
          <tr>
            <th scope="col">When</th>
            {showRule && <th scope="col">Rule</th>}
            <th scope="col">Change</th>
            <th scope="col" className="num">
              Value
            </th>
            <th scope="col" className="num">
              Threshold
            </th>
            <th scope="col" className="num">
              Sample
            </th>
            <th scope="col">Message</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr
              key={row.key}
              data-testid="alert-history-row"
              data-event-id={row.key}
              data-rule-id={row.ruleId}
              data-from={row.fromTone}
              data-to={row.toTone}
            >
              <td className="nowrap">
                <time dateTime={row.atIso} title={row.atIso}>
                  {row.atLabel}
                </time>
              </td>
              {showRule && (
                <td>
                  {row.ruleHref ? (
                    <Link to={row.ruleHref}>{row.ruleName}</Link>
                  ) : (
                    <span className="mono">{row.ruleName}</span>
                  )}
                  {row.groupLabel && <span className="muted small alert-subline">{row.groupLabel}</span>}
                </td>
              )}
              <td className="nowrap">
                <AlertStateBadge tone={row.fromTone} label={row.fromLabel} /> <span className="muted">→</span>{' '}
                <AlertStateBadge tone={row.toTone} label={row.toLabel} />
              </td>
              <td className="num">{row.valueLabel}</td>
              <td className="num">{row.thresholdLabel}</td>
              <td className="num">{row.sampleLabel}</td>
              <td className="small">{row.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
