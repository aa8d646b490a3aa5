import type { ReliabilitySummary } from '@telltale/api-contract';
import { formatMaybePercent } from '../format';
import { intervalLabel, type GapView } from '../prepare/prepareReliability';
import { Kpi } from './Kpi';

/**
 * End-to-end success observed, as the steps predict it, and the gap
 * between them, each with its 95% interval: the first KPIs of the overview's
 * and the reliability page's success tiles. `gapDetail` is what the gap's
 * line says under it (its meaning, or its interval).
 */
export function SuccessKpis({
  summary,
  gap,
  predictedLabel,
  gapDetail,
}: {
  summary: ReliabilitySummary;
  gap: GapView;
  predictedLabel: string;
  gapDetail: 'meaning' | 'interval';
}) {
  return (
    <>
      <Kpi
        label="Observed"
        display={formatMaybePercent(summary.observed.value)}
        value={summary.observed.value}
        testId="kpi-observed"
      >
        {intervalLabel(summary.observed)}
      </Kpi>
      <Kpi
        label={predictedLabel}
        display={formatMaybePercent(summary.predicted.value)}
        value={summary.predicted.value}
        testId="kpi-predicted"
      >
        {intervalLabel(summary.predicted)}
      </Kpi>
      <Kpi label="Coordination gap" display={gap.label} value={gap.value} testId="kpi-gap" tone={gap.tone}>
        {gap[gapDetail]}
      </Kpi>
    </>
  );
}
