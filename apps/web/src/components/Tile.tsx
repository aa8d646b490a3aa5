import type { ReactNode } from 'react';
import { useSaveReadKey } from '../hooks/useReadKey';
import type { TileStatus } from '../prepare/tileStatus';
import { ErrorView } from './ErrorView';
import { FilterLink } from './FilterLink';
import { StatusView } from './StatusView';

/**
 * A dashboard card: a title, an optional link to the page with the details
 * (same filters), and its content or the loading / empty / error state.
 */
export function Tile({
  title,
  subtitle,
  to,
  linkLabel = 'Details',
  status,
  testId,
  className,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  to?: string;
  linkLabel?: string;
  status: TileStatus;
  testId: string;
  className?: string;
  children: () => ReactNode;
}) {
  const saveReadKey = useSaveReadKey();
  return (
    <section
      className={`card tile ${className ?? ''}`}
      data-testid={testId}
      data-status={status.kind}
      aria-label={title}
    >
      <header className="tile-head">
        <div>
          <h2 className="card-title">{title}</h2>
          {subtitle && <p className="tile-subtitle muted small">{subtitle}</p>}
        </div>
        {to && (
          <FilterLink to={to} className="tile-link small" testId={`${testId}-link`}>
            {linkLabel} →
          </FilterLink>
        )}
      </header>
      <div className="tile-body">
        {status.kind === 'loading' ? (
          <StatusView kind="loading" title="Loading…" />
        ) : status.kind === 'error' ? (
          <ErrorView
            title={`Could not load ${title.toLowerCase()}`}
            error={status.error}
            onRetry={status.retry}
            onReadKey={saveReadKey}
          />
        ) : status.kind === 'empty' ? (
          <StatusView kind="empty" title={status.title} />
        ) : (
          children()
        )}
      </div>
    </section>
  );
}
