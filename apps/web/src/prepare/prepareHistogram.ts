import type { RunHistogram } from '@telltale/api-contract';

export interface HistogramBar {
  /** Bucket middle, in the plotted unit (the x of the bar). */
  x: number;
  from: number;
  to: number;
  runs: number;
  /** `1.2 s – 2.4 s`: the tooltip. */
  range: string;
}

export interface HistogramMark {
  key: string;
  label: string;
  /** In the plotted unit. */
  x: number;
  valueLabel: string;
}

export interface HistogramView {
  bars: HistogramBar[];
  marks: HistogramMark[];
  /** x axis bounds in the plotted unit, wide enough for every bar and mark. */
  domain: [number, number];
}

/**
 * A run histogram in a plotted unit (`scale` converts the metric's unit: ns →
 * ms, or USD as is) with percentile marks on the same axis; `format` labels
 * values in the metric's unit.
 */
export function prepareHistogram(
  histogram: RunHistogram,
  marks: readonly { key: string; label: string; value: number }[],
  scale: (raw: number) => number,
  format: (raw: number) => string,
): HistogramView {
  const bars = histogram.buckets.map((b) => ({
    x: scale((b.from + b.to) / 2),
    from: scale(b.from),
    to: scale(b.to),
    runs: b.runs,
    range: b.from === b.to ? format(b.from) : `${format(b.from)} – ${format(b.to)}`,
  }));
  const shown = marks.map((m) => ({ key: m.key, label: m.label, x: scale(m.value), valueLabel: format(m.value) }));
  const xs = [...bars.flatMap((b) => [b.from, b.to]), ...shown.map((m) => m.x)];
  const lo = xs.length === 0 ? 0 : Math.min(...xs);
  const hi = xs.length === 0 ? 1 : Math.max(...xs);
  return { bars, marks: shown, domain: hi > lo ? [lo, hi] : [lo - 1, hi + 1] };
}
