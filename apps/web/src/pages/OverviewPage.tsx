import { useMemo } from 'react';
import { DashboardFilterBar } from '../components/DashboardFilterBar';
import { BarList } from '../components/BarList';
import { FilterLink } from '../components/FilterLink';
import { Kpi } from '../components/Kpi';
import { SuccessKpis } from '../components/SuccessKpis';
import { Tile } from '../components/Tile';
import { TimeLineChart } from '../components/TimeLineChart';
import { useAnalytics, useAnalyticsMany } from '../hooks/useAnalytics';
import { useDashboardFilters } from '../hooks/useDashboardFilters';
import { formatCount, formatDuration, formatPercent, formatUsd } from '../format';
import { prepareFailureCauses, trimEmptyEnds } from '../prepare/prepareCost';
import { prepareLatencyLines } from '../prepare/prepareLatency';
import { prepareLoopCost, prepareLoopRate } from '../prepare/prepareLoops';
import { prepareFixFirst, prepareGap, prepareSuccessSeries } from '../prepare/prepareReliability';
import { prepareTimeBuckets, timeLabel } from '../prepare/prepareTimeBuckets';
import { tileStatus } from '../prepare/tileStatus';
import { fraction, nanoseconds } from '../units';

const pct = (v: number): string => formatPercent(fraction(v), 0);
const ms = (v: number): string => formatDuration(nanoseconds(v * 1e6));

/** `/`: the morning view — is success holding, which step to fix first, do loops cost money. */
export function OverviewPage() {
  const { filters, window, params, setFilters } = useDashboardFilters();
  const label = (t: number): string => timeLabel(t, window.toMs - window.fromMs);

  const summary = useAnalytics('reliabilitySummary', params);
  const cost = useAnalytics('costSummary', params);
  const loops = useAnalytics('loops', { ...params, limit: 1 });
  const failures = useAnalytics('failures', params);
  const rate = useAnalytics('loopRate', params);
  const runLatency = useAnalytics('latencySeries', { ...params, groupBy: 'run', top: 1 });

  const ratePoints = useMemo(
    () => (rate.data ? trimEmptyEnds(prepareLoopRate(rate.data, label)) : []),
    [rate.data, window],
  );
  // success over time: one summary per bucket, over the part of the window that has runs
  const buckets = useMemo(() => {
    const first = ratePoints[0];
    const last = ratePoints[ratePoints.length - 1];
    if (!rate.data || first === undefined || last === undefined) return [];
    return prepareTimeBuckets(
      {
        fromMs: Math.max(window.fromMs, first.startMs),
        toMs: Math.min(window.toMs, last.startMs + rate.data.intervalSeconds * 1000),
      },
      12,
    );
  }, [ratePoints, rate.data, window]);
  const bucketQueries = useMemo(
    () => buckets.map((b) => ({ ...params, from: b.fromMs, to: b.toMs })),
    [buckets, params],
  );
  const bucketSummaries = useAnalyticsMany('reliabilitySummary', bucketQueries);
  const successSeries = useMemo(
    () =>
      prepareSuccessSeries(
        buckets,
        bucketSummaries.map((q) => q.data),
        label,
      ),
    [buckets, bucketSummaries.map((q) => q.dataUpdatedAt).join()],
  );

  const fixFirst = summary.data ? prepareFixFirst(summary.data) : null;
  const gap = summary.data ? prepareGap(summary.data) : null;
  const loopCost =
    loops.data && cost.data && failures.data ? prepareLoopCost(loops.data, cost.data, failures.data) : null;
  const completed = summary.data ? summary.data.runs.success + summary.data.runs.failure : 0;
  const noRuns = (): string | false => (completed === 0 ? 'No completed runs in this window' : false);

  return (
    <div className="dash-page" data-testid="page-overview">
      <div className="page-head">
        <div>
          <h1>Overview</h1>
          <p className="muted">End-to-end success, the step to fix first, and what loops cost.</p>
        </div>
      </div>
      <DashboardFilterBar filters={filters} window={window} onChange={setFilters} />

      <div className="hero-grid">
        <Tile
          title="Fix first"
          to="/reliability"
          linkLabel="All steps"
          testId="tile-fix-first"
          className="hero-tile"
          status={tileStatus([summary], noRuns)}
        >
          {() =>
            fixFirst === null ? (
              <p className="hero-none" data-testid="fix-first-none">
                No single step would raise end-to-end success: every step is at or above {pct(0.99)}.
              </p>
            ) : (
              <div className="hero" data-testid="fix-first" data-step={fixFirst.stepName} data-gain={fixFirst.gain}>
                <p className="hero-eyebrow">The weakest link is</p>
                <p className="hero-title">
                  <code className="hero-step">{fixFirst.stepName}</code>{' '}
                  <span className="muted small">{fixFirst.stepKind}</span>
                </p>
                <p className="hero-sentence">{fixFirst.sentence}</p>
                <div className="hero-stats">
                  <Kpi
                    label="Step succeeds today"
                    display={formatPercent(fixFirst.current)}
                    value={fixFirst.current}
                    testId="fix-first-current"
                    tone="bad"
                  />
                  <Kpi
                    label="Predicted now → after"
                    display={`${pct(fixFirst.predictedNow)} → ${pct(fixFirst.predictedAfter)}`}
                    value={fixFirst.predictedAfter}
                    testId="fix-first-after"
                  />
                  <Kpi
                    label="Gain"
                    display={fixFirst.gainLabel}
                    value={fixFirst.gain}
                    testId="fix-first-gain"
                    tone="good"
                  />
                </div>
              </div>
            )
          }
        </Tile>
        <Tile
          title="Do loops cost money?"
          to="/loops"
          linkLabel="Looping runs"
          testId="tile-loop-cost"
          className="hero-tile"
          status={tileStatus([loops, cost, failures], () =>
            loops.data?.runs === 0 ? 'No runs in this window' : false,
          )}
        >
          {() =>
            loopCost && (
              <div className="hero" data-testid="loop-cost" data-costs-money={String(loopCost.costsMoney)}>
                <p className="hero-eyebrow">{loopCost.eyebrow}</p>
                <p
                  className={loopCost.costsMoney ? 'hero-title tone-bad' : 'hero-title'}
                  data-testid="loop-cost-headline"
                >
                  {loopCost.headline}
                </p>
                <p className="hero-sentence">{loopCost.detail}</p>
                <div className="hero-stats">
                  {loopCost.loopingRunsUsd !== null && (
                    <Kpi
                      label="Cost of looping runs"
                      display={formatUsd(loopCost.loopingRunsUsd)}
                      value={loopCost.loopingRunsUsd}
                      testId="kpi-looping-usd"
                      tone={loopCost.costsMoney ? 'bad' : 'neutral'}
                    />
                  )}
                  <Kpi
                    label="Loop rate"
                    display={formatPercent(loopCost.loopRate)}
                    value={loopCost.loopRate}
                    testId="kpi-loop-rate"
                  />
                  <Kpi
                    label="Failed in a loop"
                    display={formatCount(loopCost.loopFailures)}
                    value={loopCost.loopFailures}
                    testId="kpi-loop-failures"
                  />
                  <Kpi
                    label="Time in repeats"
                    display={formatDuration(loopCost.repeatNs)}
                    value={loopCost.repeatNs}
                    testId="kpi-loop-wasted-time"
                  />
                  <Kpi
                    label="Cost of repeats"
                    display={formatUsd(loopCost.repeatUsd)}
                    value={loopCost.repeatUsd}
                    testId="kpi-loop-wasted-usd"
                  />
                </div>
              </div>
            )
          }
        </Tile>
      </div>

      <Tile title="End-to-end success" to="/reliability" testId="tile-success" status={tileStatus([summary], noRuns)}>
        {() =>
          summary.data &&
          gap && (
            <div className="kpi-row">
              <SuccessKpis summary={summary.data} gap={gap} predictedLabel="Predicted from steps" gapDetail="meaning" />
              <Kpi label="Runs" display={formatCount(completed)} value={completed} testId="kpi-runs">
                {formatCount(summary.data.runs.failure)} failed
                {summary.data.runs.incomplete > 0 ? ` · ${formatCount(summary.data.runs.incomplete)} incomplete` : ''}
              </Kpi>
              {cost.data && (
                <>
                  <Kpi
                    label="Cost per run P50"
                    display={formatUsd(cost.data.perRun.p50Usd)}
                    value={cost.data.perRun.p50Usd}
                    testId="kpi-cost-p50"
                  />
                  <Kpi
                    label="Cost per run P99"
                    display={formatUsd(cost.data.perRun.p99Usd)}
                    value={cost.data.perRun.p99Usd}
                    testId="kpi-cost-p99"
                  />
                </>
              )}
            </div>
          )
        }
      </Tile>

      <div className="grid-2-1">
        <Tile
          title="Success over time: observed vs predicted"
          subtitle="Bands are 95% intervals. Observed below predicted means runs fail between steps."
          to="/reliability"
          testId="tile-success-series"
          status={tileStatus([rate, ...bucketSummaries], () =>
            successSeries.every((p) => p.observed === null) ? 'No completed runs in this window' : false,
          )}
        >
          {() => (
            <TimeLineChart
              testId="chart-success"
              rows={successSeries}
              lines={[
                { dataKey: 'observed', label: 'Observed', color: '#2563eb' },
                { dataKey: 'predicted', label: 'Predicted', color: '#d97706' },
              ]}
              bands={[
                { dataKey: 'observedBand', label: 'Observed 95%', color: '#2563eb' },
                { dataKey: 'predictedBand', label: 'Predicted 95%', color: '#d97706' },
              ]}
              format={pct}
              domain={[0, 1]}
            />
          )}
        </Tile>
        <Tile
          title="Failures by primary cause"
          to="/runs?outcome=failure"
          linkLabel="Failed runs"
          testId="tile-failures"
          status={tileStatus([failures], () => (failures.data?.failedRuns === 0 ? 'No failed runs' : false))}
        >
          {() => failures.data && <BarList rows={prepareFailureCauses(failures.data)} testId="failure-causes" />}
        </Tile>
      </div>

      <div className="grid-3">
        <Tile
          title="Runs per interval"
          to="/runs"
          linkLabel="Runs"
          testId="tile-runs-series"
          status={tileStatus([rate], () => (ratePoints.length === 0 ? 'No runs in this window' : false))}
        >
          {() => (
            <TimeLineChart
              testId="chart-runs"
              rows={ratePoints}
              lines={[
                { dataKey: 'runs', label: 'Runs', color: '#2563eb' },
                { dataKey: 'loopingRuns', label: 'Looping runs', color: '#7c3aed' },
              ]}
              format={(v) => formatCount(v)}
              height={180}
            />
          )}
        </Tile>
        <Tile
          title="P99 run latency"
          to="/latency"
          testId="tile-latency-series"
          status={tileStatus([runLatency], () =>
            runLatency.data?.series.length === 0 ? 'No runs in this window' : false,
          )}
        >
          {() => {
            if (!runLatency.data) return null;
            const p99 = prepareLatencyLines(runLatency.data, 'p99', label);
            const p50 = prepareLatencyLines(runLatency.data, 'p50', label);
            const rows = p99.rows.map((row, i) => ({ label: row.label, p99: row.s0, p50: p50.rows[i]?.s0 ?? null }));
            return (
              <TimeLineChart
                testId="chart-p99"
                rows={trimEmptyEnds(rows.map((r) => ({ ...r, runs: r.p99 === null ? 0 : 1 })))}
                lines={[
                  { dataKey: 'p99', label: 'P99', color: '#dc2626' },
                  { dataKey: 'p50', label: 'P50', color: '#94a3b8' },
                ]}
                format={ms}
                height={180}
              />
            );
          }}
        </Tile>
        <Tile
          title="Loop rate"
          to="/loops"
          testId="tile-loop-rate"
          status={tileStatus([rate], () => (ratePoints.length === 0 ? 'No runs in this window' : false))}
        >
          {() => (
            <TimeLineChart
              testId="chart-loop-rate"
              rows={ratePoints}
              lines={[{ dataKey: 'rate', label: 'Share of runs looping', color: '#7c3aed' }]}
              format={pct}
              height={180}
              domain={[0, 'auto']}
            />
          )}
        </Tile>
      </div>
      <p className="muted small footnote">
        Every tile opens its page with the same filters. <FilterLink to="/cost">Cost details →</FilterLink>
      </p>
    </div>
  );
}
