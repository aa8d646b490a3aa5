import { useEffect, useRef } from 'react';
import type { SpanDetail } from '../prepare/prepareSpanDetail';
import { AttributeTable } from './AttributeTable';
import { SpanContentSection } from './SpanContentSection';

/**
 * Everything about one span: fields, its input and output, attributes, resource
 * attributes and events. Scrolled into view when the span changes and the panel
 * starts off-screen (below the waterfall on a narrow screen); Esc closes it.
 */
export function SpanDetailPanel({
  runId,
  detail,
  onClose,
}: {
  runId: string;
  detail: SpanDetail;
  onClose: () => void;
}) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    const panel = ref.current;
    if (panel === null) return;
    const top = panel.getBoundingClientRect().top;
    if (top < 0 || top > window.innerHeight / 2) panel.scrollIntoView({ block: 'start', behavior: 'smooth' });
  }, [detail.spanId]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <aside
      ref={ref}
      className="card span-panel"
      data-testid="span-panel"
      data-span-id={detail.spanId}
      aria-label="Span details"
    >
      <header className="span-panel-head">
        <span className="kind-chip" style={{ color: detail.color, borderColor: detail.color }}>
          {detail.kindLabel}
        </span>
        <h2 className="span-panel-title">{detail.title}</h2>
        <button type="button" className="icon-button" onClick={onClose} aria-label="Close span details">
          ×
        </button>
      </header>
      <p className={detail.isError ? 'span-status is-error' : 'span-status'}>
        Status: <strong>{detail.statusLabel}</strong>
        {detail.errorMessage && <span className="span-error-message">{detail.errorMessage}</span>}
      </p>
      <dl className="field-list">
        {detail.fields.map((field) => (
          <div key={field.label} className="field-row">
            <dt>{field.label}</dt>
            <dd className={field.mono ? 'mono' : undefined}>{field.value}</dd>
          </div>
        ))}
      </dl>
      <SpanContentSection
        key={detail.spanId}
        runId={runId}
        spanId={detail.spanId}
        errorMessage={detail.isError ? detail.errorMessage || detail.statusLabel : undefined}
      />
      <section className="panel-section">
        <h3>Attributes</h3>
        <AttributeTable entries={detail.attributes} emptyText="No attributes" />
      </section>
      <section className="panel-section">
        <h3>Resource attributes</h3>
        <AttributeTable entries={detail.resourceAttributes} emptyText="No resource attributes" />
      </section>
      <section className="panel-section">
        <h3>Events</h3>
        {detail.events.length === 0 ? (
          <p className="muted small">No events</p>
        ) : (
          <ol className="event-list">
            {detail.events.map((event, index) => (
              <li key={`${event.timeIso}-${index}`} className="event">
                <div className="event-head">
                  <span className="event-name">{event.name}</span>
                  <span className="muted small" title={event.timeIso}>
                    {event.offsetLabel}
                  </span>
                </div>
                <AttributeTable entries={event.attributes} emptyText="No attributes" />
              </li>
            ))}
          </ol>
        )}
      </section>
    </aside>
  );
}
