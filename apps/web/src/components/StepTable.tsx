import type { StepRow } from '../prepare/prepareReliability';

/** Per-step reliability, in the order given (by impact). */
export function StepTable({ rows }: { rows: readonly StepRow[] }) {
  return (
    <div className="table-wrap">
      <table className="table" data-testid="step-table">
        <thead>
          <tr>
            <th scope="col">Step</th>
            <th scope="col">Kind</th>
            <th scope="col" className="num">
              Groups
            </th>
            <th scope="col" className="num">
              Attempts
            </th>
            <th scope="col" className="num">
              First attempt
            </th>
            <th scope="col" className="num">
              Eventual
            </th>
            <th scope="col" className="num">
              Recovery
            </th>
            <th scope="col" className="num">
              Retry time
            </th>
            <th scope="col" className="num">
              Retry cost
            </th>
            <th scope="col">Gain at 99%</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr
              key={row.stepName}
              className={i === 0 && row.gainBar > 0 ? 'highlight' : undefined}
              data-testid="step-row"
              data-step={row.stepName}
              data-eventual={row.eventual ?? ''}
              data-first={row.firstAttempt ?? ''}
              data-gain={row.gain ?? ''}
            >
              <td>
                <code>{row.stepName}</code>
              </td>
              <td className="muted">{row.stepKind}</td>
              <td className="num">{row.groups}</td>
              <td className="num">{row.attempts}</td>
              <td className="num">{row.firstAttemptLabel}</td>
              <td className="num" title={row.eventualInterval}>
                {row.eventualLabel}
              </td>
              <td className="num">{row.recoveryLabel}</td>
              <td className="num">{row.retryTimeLabel}</td>
              <td className="num">{row.retryCostLabel}</td>
              <td className="nowrap">
                <span className="impact-bar" style={{ width: `${Math.round(row.gainBar * 80)}px` }} />
                {row.gainLabel}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
