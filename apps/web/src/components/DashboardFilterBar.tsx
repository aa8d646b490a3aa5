import { useEffect, useState } from 'react';
import { useDebouncedValue } from '../hooks/useDebouncedValue';
import type { DashboardFilters, NameFilter, RangeChoice, TimeWindow } from '../prepare/dashboardFilters';
import { NAME_FILTERS, RANGE_LABELS, RANGE_PRESETS } from '../prepare/dashboardFilters';

const FIELD_LABELS: Readonly<Record<NameFilter, string>> = {
  service: 'Service',
  agent: 'Agent',
  step: 'Step',
  tool: 'Tool',
  model: 'Model',
};

/** `datetime-local` text for epoch ms, in the browser's time zone. */
function toLocalInput(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A text filter that writes its value once typing pauses, and follows the URL otherwise. */
function NameField({
  name,
  value,
  onCommit,
}: {
  name: NameFilter;
  value: string;
  onCommit: (name: NameFilter, value: string) => void;
}) {
  const [text, setText] = useState(value);
  const debounced = useDebouncedValue(text, 400);
  useEffect(() => {
    setText((current) => (current.trim() === value ? current : value));
  }, [value]);
  useEffect(() => {
    if (debounced.trim() !== value) onCommit(name, debounced.trim());
  }, [debounced]);
  return (
    <label className="field filter-field">
      <span className="field-label">{FIELD_LABELS[name]}</span>
      <input
        type="search"
        value={text}
        placeholder="any"
        spellCheck={false}
        onChange={(e) => setText(e.target.value)}
        data-testid={`filter-${name}`}
      />
    </label>
  );
}

/**
 * The time range (presets or a custom window) and the name filters every
 * analytics page shares; values live in the URL, the page owns them.
 */
export function DashboardFilterBar({
  filters,
  window,
  fields = NAME_FILTERS,
  onChange,
  children,
}: {
  filters: DashboardFilters;
  window: TimeWindow;
  fields?: readonly NameFilter[];
  onChange: (change: Partial<DashboardFilters>, replace?: boolean) => void;
  children?: React.ReactNode;
}) {
  const choose = (range: RangeChoice): void => {
    if (range === 'custom') onChange({ range, fromMs: window.fromMs, toMs: window.toMs });
    else onChange({ range, fromMs: undefined, toMs: undefined });
  };
  const active = fields.filter((f) => filters[f] !== '');
  // a custom range's bounds as given (an inverted one included), the window's where one is missing
  const fromMs = filters.fromMs ?? window.fromMs;
  const toMs = filters.toMs ?? window.toMs;
  return (
    <form className="card dash-filters" role="search" onSubmit={(e) => e.preventDefault()} data-testid="filter-bar">
      <div
        className="range-picker"
        role="group"
        aria-label="Time range"
        data-testid="time-window"
        data-from={window.fromMs}
        data-to={window.toMs}
        data-range={filters.range}
      >
        {[...RANGE_PRESETS, 'custom' as const].map((range) => (
          <button
            key={range}
            type="button"
            className={filters.range === range ? 'range-button active' : 'range-button'}
            aria-pressed={filters.range === range}
            title={RANGE_LABELS[range]}
            onClick={() => choose(range)}
            data-testid={`range-${range}`}
          >
            {range === 'custom' ? 'Custom' : range}
          </button>
        ))}
      </div>
      {filters.range === 'custom' && (
        <div className="custom-range">
          <label className="field">
            <span className="field-label">From</span>
            <input
              type="datetime-local"
              value={toLocalInput(fromMs)}
              onChange={(e) => {
                const ms = Date.parse(e.target.value);
                if (Number.isFinite(ms)) onChange({ range: 'custom', fromMs: ms, toMs });
              }}
              data-testid="range-from"
            />
          </label>
          <label className="field">
            <span className="field-label">To</span>
            <input
              type="datetime-local"
              value={toLocalInput(toMs)}
              onChange={(e) => {
                const ms = Date.parse(e.target.value);
                if (Number.isFinite(ms)) onChange({ range: 'custom', fromMs, toMs: ms });
              }}
              data-testid="range-to"
            />
          </label>
        </div>
      )}
      <div className="name-filters">
        {fields.map((name) => (
          <NameField
            key={name}
            name={name}
            value={filters[name]}
            onCommit={(key, value) => onChange({ [key]: value }, true)}
          />
        ))}
        {children}
        <button
          type="button"
          className="button button-quiet"
          disabled={active.length === 0}
          onClick={() => onChange(Object.fromEntries(fields.map((f) => [f, ''])))}
          data-testid="filter-clear"
        >
          Clear
        </button>
      </div>
    </form>
  );
}
