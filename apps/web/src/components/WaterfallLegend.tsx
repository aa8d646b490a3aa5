import type { Waterfall } from '../prepare/prepareWaterfall';

/** Step-kind colours present in this run, plus the markers the waterfall uses. */
export function WaterfallLegend({ legend }: { legend: Waterfall['legend'] }) {
  return (
    <ul className="legend" aria-label="Legend" data-testid="waterfall-legend">
      {legend.map((item) => (
        <li key={item.stepKind} className="legend-item">
          <span className="legend-swatch" style={{ background: item.color }} aria-hidden="true" />
          {item.label}
        </li>
      ))}
      <li className="legend-item legend-sep">
        <span className="legend-swatch legend-error" aria-hidden="true" />
        error
      </li>
      <li className="legend-item">
        <span className="attempt-badge failed">attempt n/N</span>
        failed attempt
      </li>
      <li className="legend-item">
        <span className="side-effect-mark" aria-hidden="true">
          ⚑
        </span>
        side effect
      </li>
    </ul>
  );
}
