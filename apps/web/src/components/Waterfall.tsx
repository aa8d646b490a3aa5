import type { CSSProperties } from 'react';
import { useEffect, useRef } from 'react';
import type { Waterfall as WaterfallModel, WaterfallRow } from '../prepare/prepareWaterfall';

const INDENT_PX = 16;

/**
 * The span tree on the run's time axis; a click on a row selects the span, and
 * when the selection is cleared its row takes the focus back. `loopSpans` marks
 * loop evidence (span id → kind).
 */
export function Waterfall({
  waterfall,
  selectedSpanId,
  onSelect,
  loopSpans,
}: {
  waterfall: WaterfallModel;
  selectedSpanId: string | undefined;
  onSelect: (spanId: string) => void;
  loopSpans?: ReadonlyMap<string, string>;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const previous = useRef(selectedSpanId);
  useEffect(() => {
    const closed = previous.current;
    previous.current = selectedSpanId;
    if (closed === undefined || selectedSpanId !== undefined) return;
    ref.current?.querySelector<HTMLElement>(`[data-span-id="${CSS.escape(closed)}"]`)?.focus();
  }, [selectedSpanId]);
  return (
    <div ref={ref} className="waterfall" data-testid="waterfall" role="group" aria-label="Spans">
      <div className="wf-head" aria-hidden="true">
        <div className="wf-label-cell wf-head-label">Span</div>
        <div className="wf-timeline">
          {waterfall.ticks.map((tick) => (
            <span key={tick.offset} className="wf-tick" style={{ left: pct(tick.fraction) }}>
              <span className="wf-tick-label">{tick.label}</span>
            </span>
          ))}
        </div>
      </div>
      <div className="wf-body">
        <div className="wf-gridlines" aria-hidden="true">
          <span />
          <span className="wf-timeline">
            {waterfall.ticks.map((tick) => (
              <span key={tick.offset} className="wf-gridline" style={{ left: pct(tick.fraction) }} />
            ))}
          </span>
        </div>
        {waterfall.rows.map((row) => (
          <WaterfallRowView
            key={row.spanId}
            row={row}
            selected={row.spanId === selectedSpanId}
            onSelect={onSelect}
            loopKind={loopSpans?.get(row.spanId)}
          />
        ))}
      </div>
    </div>
  );
}

function WaterfallRowView({
  row,
  selected,
  onSelect,
  loopKind,
}: {
  row: WaterfallRow;
  selected: boolean;
  onSelect: (spanId: string) => void;
  loopKind: string | undefined;
}) {
  const className = [
    'wf-row',
    row.isError ? 'is-error' : '',
    loopKind ? 'is-loop' : '',
    selected ? 'is-selected' : '',
    row.attempt ? `attempt-${row.attempt.position}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const rowStyle = { '--depth': row.depth } as CSSProperties;
  const barStyle: CSSProperties = {
    left: pct(row.offsetFraction),
    width: pct(row.widthFraction),
    background: row.color,
  };
  const labelStyle: CSSProperties =
    row.labelPlacement === 'after'
      ? { left: pct(row.offsetFraction + row.widthFraction) }
      : { right: pct(1 - row.offsetFraction - (row.labelPlacement === 'inside' ? row.widthFraction : 0)) };
  return (
    <button
      type="button"
      className={className}
      style={rowStyle}
      aria-pressed={selected}
      onClick={() => onSelect(row.spanId)}
      data-testid="waterfall-row"
      data-span-id={row.spanId}
      data-depth={row.depth}
      data-step-kind={row.stepKind}
      data-error={row.isError}
      data-attempt={row.attempt?.label}
      data-loop={loopKind ?? ''}
    >
      <span className="wf-label-cell" style={{ paddingLeft: 8 + row.depth * INDENT_PX }}>
        <span className="kind-chip" style={{ color: row.color, borderColor: row.color }}>
          {row.kindLabel}
        </span>
        <span className="wf-name" title={row.name}>
          {row.name}
        </span>
        {row.detail && <span className="wf-detail">{row.detail}</span>}
        {row.attempt && (
          <span className={row.attempt.failed ? 'attempt-badge failed' : 'attempt-badge'}>{row.attempt.label}</span>
        )}
        {loopKind && (
          <span className="loop-chip" title={`Loop evidence: ${loopKind}`}>
            ⟳ <span className="wf-loop-kind">{loopKind}</span>
          </span>
        )}
        {row.sideEffect && (
          <span className="side-effect-mark" title="Side effect">
            ⚑
          </span>
        )}
        {row.isOrphan && (
          <span className="orphan-badge" title={`Parent span ${row.parentSpanId} is not in this run`}>
            orphan
          </span>
        )}
        {row.isError && (
          <span className="wf-error" title={row.errorLabel}>
            {row.errorLabel}
          </span>
        )}
      </span>
      <span className="wf-timeline" title={`${row.offsetLabel} · ${row.durationLabel}`}>
        <span className="wf-bar" style={barStyle} />
        <span className={`wf-duration ${row.labelPlacement}`} style={labelStyle}>
          {row.durationLabel}
        </span>
      </span>
    </button>
  );
}

function pct(value: number): string {
  return `${(value * 100).toFixed(4)}%`;
}
