import { shortSessionId } from '../prepare/sessionsFilters';

/** The runs list's session filter, shown in the filter bar; × removes it. */
export function SessionChip({ sessionId, onRemove }: { sessionId: string; onRemove: () => void }) {
  return (
    <div className="field">
      <span className="field-label">Session</span>
      <span className="filter-chip" data-testid="filter-session" data-session-id={sessionId}>
        <span className="mono" title={sessionId}>
          {shortSessionId(sessionId, 28)}
        </span>
        <button
          type="button"
          className="filter-chip-remove"
          aria-label="Remove the session filter"
          title="Show runs of every session"
          onClick={onRemove}
          data-testid="filter-session-remove"
        >
          ×
        </button>
      </span>
    </div>
  );
}
