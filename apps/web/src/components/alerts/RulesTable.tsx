import { Link } from 'react-router';
import type { RuleRow } from '../../prepare/prepareAlertRules';
import { AlertStateBadge } from './AlertStateBadge';

/** Alert rules with the most severe state of their groups. */
export function RulesTable({ rows }: { rows: readonly RuleRow[] }) {
  return (
    <div className="table-wrap">
      <table className="table" data-testid="alert-rules-table">
        <thead>
          <tr>
            <th scope="col">State</th>
            <th scope="col">Rule</th>
            <th scope="col">Condition</th>
            <th scope="col">Current value</th>
            <th scope="col">Filters</th>
            <th scope="col">Destinations</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr
              key={row.id}
              data-testid="alert-rule-row"
              data-rule-id={row.id}
              data-state={row.tone}
              data-enabled={row.enabled}
            >
              <td>
                <AlertStateBadge tone={row.enabled ? row.tone : 'unknown'} label={row.stateLabel} />
              </td>
              <td className="alert-rule-cell">
                <Link to={row.href} className="run-name" data-testid="alert-rule-link">
                  {row.name}
                </Link>
                {row.description && <span className="muted small alert-rule-description">{row.description}</span>}
              </td>
              <td>
                <span data-testid="alert-rule-condition">{row.conditionLabel}</span>
                <span className="muted small alert-subline">{row.windowLabel}</span>
              </td>
              <td className="nowrap" data-testid="alert-rule-value">
                {row.stateDetail || <span className="muted">–</span>}
              </td>
              <td className="small">{row.filtersLabel}</td>
              <td className="small">{row.destinationsLabel}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
