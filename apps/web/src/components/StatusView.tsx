import type { ReactNode } from 'react';

/** Loading, empty and error placeholders, all the same shape. */
export function StatusView({
  kind,
  title,
  children,
  action,
}: {
  kind: 'loading' | 'empty' | 'error';
  title: string;
  children?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div
      className={`status-view status-${kind}`}
      role={kind === 'error' ? 'alert' : 'status'}
      data-testid={`status-${kind}`}
    >
      {kind === 'loading' && <span className="spinner" aria-hidden="true" />}
      <p className="status-title">{title}</p>
      {children && <div className="status-body">{children}</div>}
      {action && <div className="status-action">{action}</div>}
    </div>
  );
}
