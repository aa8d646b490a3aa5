import { type CostGroupBy } from '@telltale/semconv';
import { useMemo } from 'react';
import { BarList } from '../components/BarList';
import { DashboardFilterBar } from '../components/DashboardFilterBar';
import { Kpi } from '../components/Kpi';
import { HistogramChart } from '../components/HistogramChart';
import { Tile } from '../components/Tile';
import { TimeLineChart } from '../components/TimeLineChart';
import { formatCount, formatPercent, formatUsd } from '../format';
import { useAnalytics } from '../hooks/useAnalytics';
import { useDashboardFilters } from '../hooks/useDashboardFilters';
import { prepareHistogram } from '../prepare/prepareHistogram';
import {
  loopingRunsDetail,
  prepareCostBars,
  prepareCostDistribution,
  prepareCostSeries,
  trimEmptyEnds,
} from '../prepare/prepareCost';
import { timeLabel } from '../prepare/prepareTimeBuckets';
import { tileStatus } from '../prepare/tileStatus';
import { usd } from '../units';

const BREAKDOWNS: readonly { groupBy: CostGroupBy; title: string }[] = [
  { groupBy: 'model', title: 'By model' },
  { groupBy: 'step', title: 'By step' },
  { groupBy: 'tool', title: 'By tool' },
];

/** One cost breakdown tile. */
function BreakdownTile({
  groupBy,
  title,
  params,
}: {
  groupBy: CostGroupBy;
  title: string;
  params: Record<string, string>;
}) {
  const breakdown = useAnalytics('costBreakdown', { ...params, groupBy });
  const rows = useMemo(() => (breakdown.data ? prepareCostBars(breakdown.data, 10) : []), [breakdown.data]);
  return (
    <Tile
      title={title}
      testId={`tile-cost-${groupBy}`}
      status={tileStatus([breakdown], () => (rows.length === 0 ? 'No cost in this window' : false))}
    >
      {() => <BarList rows={rows} testId={`cost-${groupBy}`} color="#0d9488" />}
    </Tile>
  );
}

/**
 * `/cost`: cost per run, what was wasted, and where the money goes by model,
 * step and tool. Amounts for the whole window read to the precision of the
 * total spend, per-run amounts to that of the costliest run.
 */
export function CostPage() {
  const { filters, window, params, setFilters } = useDashboardFilters();
  const label = (t: number): string => timeLabel(t, window.toMs - window.fromMs);
  const summary = useAnalytics('costSummary', params);
  const series = useAnalytics('costSeries', params);
  const loops = useAnalytics('loops', { ...params, limit: 1 });
  const histogram = useAnalytics('costHistogram', { ...params, buckets: 40 });
  const s = summary.data;
  const total = (v: number): string => formatUsd(usd(v), s?.totalUsd);
  const perRun = (v: number | null): string => formatUsd(v === null ? null : usd(v), s?.perRun.maxUsd);

  const distribution = useMemo(() => (summary.data ? prepareCostDistribution(summary.data) : []), [summary.data]);
  const histogramView = useMemo(
    () =>
      histogram.data
        ? prepareHistogram(
            histogram.data,
            distribution
              .filter((d) => d.key === 'p50' || d.key === 'p95' || d.key === 'p99')
              .map((d) => ({ key: d.key, label: d.label, value: d.usd })),
            (v) => v,
            perRun,
          )
        : null,
    [histogram.data, distribution],
  );
  const points = useMemo(
    () => (series.data ? trimEmptyEnds(prepareCostSeries(series.data, label)) : []),
    [series.data, window],
  );

  return (
    <div className="dash-page" data-testid="page-cost">
      <div className="page-head">
        <div>
          <h1>Cost</h1>
          <p className="muted">
            What a run costs, what failures and loops wasted, and which models, steps and tools spend it.
          </p>
        </div>
      </div>
      <DashboardFilterBar filters={filters} window={window} onChange={setFilters} />

      <Tile
        title="Spend"
        testId="tile-cost-summary"
        status={tileStatus([summary, loops], () => (s?.runs.total === 0 ? 'No runs in this window' : false))}
      >
        {() =>
          s && (
            <div className="kpi-row">
              <Kpi label="Total" display={total(s.totalUsd)} value={s.totalUsd} testId="kpi-cost-total">
                {formatCount(s.runs.total)} runs
              </Kpi>
              <Kpi
                label="Per run P50"
                display={perRun(s.perRun.p50Usd)}
                value={s.perRun.p50Usd}
                testId="kpi-cost-p50"
              />
              <Kpi
                label="Per run P99"
                display={perRun(s.perRun.p99Usd)}
                value={s.perRun.p99Usd}
                testId="kpi-cost-p99"
              />
              <Kpi
                label="Per success"
                display={perRun(s.perSuccessUsd)}
                value={s.perSuccessUsd}
                testId="kpi-cost-per-success"
              >
                total ÷ successful runs
              </Kpi>
              <Kpi
                label="Wasted"
                display={total(s.wasted.totalUsd)}
                value={s.wasted.totalUsd}
                testId="kpi-cost-wasted"
                tone={s.wasted.totalUsd > 0 ? 'bad' : 'neutral'}
              >
                {formatPercent(s.wasted.share)} of spend: failed runs {total(s.wasted.failedRunsUsd)}
                {s.wasted.loopingRunsUsd !== null
                  ? ` + looping runs that did not fail ${total(s.wasted.loopingRunsUsd)}`
                  : ''}
              </Kpi>
              {s.looping !== null && (
                <Kpi
                  label="Looping runs"
                  display={total(s.looping.costUsd + s.looping.failedUsd)}
                  value={s.looping.costUsd + s.looping.failedUsd}
                  testId="kpi-cost-looping"
                  tone={s.looping.costUsd + s.looping.failedUsd > 0 ? 'bad' : 'neutral'}
                >
                  {loopingRunsDetail(s.looping, s.totalUsd)}
                </Kpi>
              )}
              {loops.data && (
                <Kpi
                  label="Wasted in loop repeats"
                  display={total(loops.data.overall.wastedCostUsd)}
                  value={loops.data.overall.wastedCostUsd}
                  testId="kpi-loop-wasted-usd"
                />
              )}
              {s.unpriced.spans > 0 && (
                <Kpi
                  label="Unpriced spans"
                  display={formatCount(s.unpriced.spans)}
                  value={s.unpriced.spans}
                  testId="kpi-unpriced"
                />
              )}
            </div>
          )
        }
      </Tile>

      <div className="grid-2">
        <Tile
          title="Cost per run distribution"
          subtitle="Completed runs by cost; P50, P95 and P99 marked."
          testId="tile-cost-distribution"
          status={tileStatus([summary, histogram], () =>
            distribution.length === 0 || histogramView === null || histogramView.bars.length === 0
              ? 'No completed runs in this window'
              : false,
          )}
        >
          {() =>
            histogramView && (
              <>
                <HistogramChart view={histogramView} format={perRun} testId="cost-histogram" />
                <ul className="mark-list small muted" data-testid="cost-distribution">
                  {distribution.map((d) => (
                    <li key={d.key} data-testid="cost-distribution-value" data-key={d.key} data-value={d.usd}>
                      {d.label} <strong>{d.valueLabel}</strong>
                    </li>
                  ))}
                </ul>
              </>
            )
          }
        </Tile>
        <Tile
          title="Cost over time"
          testId="tile-cost-series"
          status={tileStatus([series], () => (points.length === 0 ? 'No runs in this window' : false))}
        >
          {() => (
            <TimeLineChart
              testId="chart-cost"
              rows={points}
              lines={[
                { dataKey: 'totalUsd', label: 'Total', color: '#0d9488' },
                { dataKey: 'failureUsd', label: 'On failed runs', color: '#dc2626' },
              ]}
              format={total}
              height={200}
            />
          )}
        </Tile>
      </div>

      <div className="grid-3">
        {BREAKDOWNS.map((b) => (
          <BreakdownTile key={b.groupBy} groupBy={b.groupBy} title={b.title} params={params} />
        ))}
      </div>
    </div>
  );
}
