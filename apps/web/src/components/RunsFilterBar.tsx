import type { RunOutcome } from '../api/schemas';

export interface OutcomeOption {
  value: RunOutcome | '';
  label: string;
}

/** Outcome select and service text filter; the page owns the values. */
export function RunsFilterBar({
  outcome,
  outcomeOptions,
  service,
  canClear,
  onOutcomeChange,
  onServiceChange,
  onClear,
}: {
  outcome: RunOutcome | '';
  outcomeOptions: readonly OutcomeOption[];
  service: string;
  canClear: boolean;
  onOutcomeChange: (value: string) => void;
  onServiceChange: (value: string) => void;
  onClear: () => void;
}) {
  return (
    <form className="filter-bar" role="search" onSubmit={(e) => e.preventDefault()}>
      <label className="field">
        <span className="field-label">Outcome</span>
        <select value={outcome} onChange={(e) => onOutcomeChange(e.target.value)} data-testid="filter-outcome">
          {outcomeOptions.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </label>
      <label className="field field-grow">
        <span className="field-label">Service</span>
        <input
          type="search"
          value={service}
          placeholder="Filter by service"
          spellCheck={false}
          onChange={(e) => onServiceChange(e.target.value)}
          data-testid="filter-service"
        />
      </label>
      <button type="button" className="button button-quiet" onClick={onClear} disabled={!canClear}>
        Clear
      </button>
    </form>
  );
}
