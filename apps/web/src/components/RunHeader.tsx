import { Link } from 'react-router';
import type { RunHeader as RunHeaderModel } from '../prepare/prepareRunHeader';
import { OutcomeBadge } from './OutcomeBadge';

/** Run name, outcome, ids and headline numbers. */
export function RunHeader({ header }: { header: RunHeaderModel }) {
  return (
    <section className="card run-header" data-testid="run-header" data-run-id={header.runId} aria-label="Run summary">
      <div className="run-header-top">
        <div>
          <h1 className="run-title">{header.name}</h1>
          <div className="run-ids">
            <span>
              <span className="muted">Run</span>{' '}
              <code className="mono" data-testid="run-id">
                {header.runId}
              </code>
            </span>
            <span>
              <span className="muted">Trace</span> <code className="mono">{header.traceId}</code>
            </span>
            {header.sessionId && (
              <span data-testid="run-session" data-session-id={header.sessionId}>
                <span className="muted">Session</span>{' '}
                <Link
                  to={header.sessionHref}
                  className="mono"
                  title="All runs of this session"
                  data-testid="run-session-link"
                >
                  {header.sessionId}
                </Link>
              </span>
            )}
            {header.service && (
              <span>
                <span className="muted">Service</span> {header.service}
              </span>
            )}
          </div>
        </div>
        <OutcomeBadge outcome={header.outcome} label={header.outcomeLabel} />
      </div>
      <dl className="stats">
        {header.stats.map((stat) => (
          <div key={stat.label} className="stat">
            <dt>{stat.label}</dt>
            <dd title={stat.title}>{stat.value}</dd>
          </div>
        ))}
      </dl>
      {header.error.errorType && (
        <p className="run-error" data-testid="run-error">
          <span className="muted">{header.error.errorLabel}</span>{' '}
          <span className={header.error.recovered ? 'error-type recovered' : 'error-type'}>
            {header.error.errorType}
          </span>
        </p>
      )}
    </section>
  );
}
