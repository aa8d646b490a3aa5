import { Link } from 'react-router';
import type { StateGroupRow } from '../../prepare/prepareAlertRules';
import { AlertStateBadge } from './AlertStateBadge';

/** A rule's current state per group: value against threshold, since when. */
export function StateGroupsTable({ rows }: { rows: readonly StateGroupRow[] }) {
  return (
    <div className="table-wrap">
      <table className="table" data-testid="alert-states-table">
        <thead>
          <tr>
            <th scope="col">State</th>
            <th scope="col">Group</th>
            <th scope="col" className="num">
              Value
            </th>
            <th scope="col" className="num">
              Threshold
            </th>
            <th scope="col" className="num">
              Sample
            </th>
            <th scope="col">Since</th>
            <th scope="col">Last evaluated</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key} data-testid="alert-state-row" data-state={row.tone} data-group={row.groupKey}>
              <td>
                <AlertStateBadge tone={row.tone} label={row.stateLabel} />
              </td>
              <td>{row.runHref ? <Link to={row.runHref}>{row.groupLabel}</Link> : row.groupLabel}</td>
              <td className="num" data-testid="alert-state-value" title={row.comparisonLabel}>
                {row.valueLabel}
              </td>
              <td className="num">{row.thresholdLabel}</td>
              <td className="num">{row.sampleLabel}</td>
              <td className="nowrap">{row.sinceLabel}</td>
              <td className="nowrap">{row.lastEvalLabel}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
