import type { ReactNode } from 'react';

/** A headline number; `value` (the raw number) goes into `data-value` for tests and copy. */
export function Kpi({
  label,
  display,
  value,
  testId,
  tone,
  children,
}: {
  label: string;
  display: string;
  value: number | string | null;
  testId: string;
  tone?: 'bad' | 'good' | 'neutral';
  children?: ReactNode;
}) {
  return (
    <div
      className={`kpi kpi-${tone ?? 'neutral'}`}
      data-testid={testId}
      data-value={value === null ? '' : String(value)}
    >
      <span className="kpi-label">{label}</span>
      <span className="kpi-value">{display}</span>
      {children && <span className="kpi-detail small muted">{children}</span>}
    </div>
  );
}
