import type { BarRow } from '../prepare/prepareCost';

/** Labelled horizontal bars (plain HTML: cheap for any number of rows). */
export function BarList({
  rows,
  testId,
  color = '#2563eb',
}: {
  rows: readonly BarRow[];
  testId: string;
  color?: string;
}) {
  return (
    <ul className="bar-list" data-testid={testId}>
      {rows.map((row) => (
        <li key={row.key} className="bar-row" data-testid={`${testId}-row`} data-key={row.key} data-value={row.value}>
          <span className="bar-label" title={row.label}>
            {row.label}
          </span>
          <span className="bar-track">
            <span
              className="bar-fill"
              style={{ width: `${Math.max(row.bar * 100, row.value > 0 ? 1 : 0)}%`, background: row.color ?? color }}
            />
          </span>
          <span className="bar-value">{row.valueLabel}</span>
          <span className="bar-detail muted small">{row.detail}</span>
        </li>
      ))}
    </ul>
  );
}
