import type { LoopRow } from '../prepare/prepareLoops';

/** The run's loop detections above its waterfall: what repeated, how often, what it wasted. */
export function RunLoopsBanner({ detections }: { detections: readonly LoopRow[] }) {
  return (
    <section className="card loop-banner" aria-label="Loops in this run" data-testid="run-loops">
      <h2 className="card-title">⟳ {detections.length === 1 ? 'A loop' : `${detections.length} loops`} in this run</h2>
      <ul>
        {detections.map((d) => (
          <li key={d.key} data-testid="run-loop" data-kind={d.kind} data-count={d.count}>
            <strong>{d.kindLabel}</strong> <code>{d.subject}</code> ×{d.count} — wasted {d.wastedTimeLabel} and{' '}
            {d.wastedCostLabel}
          </li>
        ))}
      </ul>
    </section>
  );
}
