import { useMemo } from 'react';
import { DashboardFilterBar } from '../components/DashboardFilterBar';
import { Kpi } from '../components/Kpi';
import { StepTable } from '../components/StepTable';
import { SuccessKpis } from '../components/SuccessKpis';
import { Tile } from '../components/Tile';
import { TimeLineChart } from '../components/TimeLineChart';
import { formatCount, formatPercent } from '../format';
import { useAnalytics } from '../hooks/useAnalytics';
import { useDashboardFilters } from '../hooks/useDashboardFilters';
import { prepareCurve, prepareGap, prepareStepTable, prepareWhatIf } from '../prepare/prepareReliability';
import { tileStatus } from '../prepare/tileStatus';
import { fraction } from '../units';

const pct = (v: number): string => formatPercent(fraction(v), 0);

/** `/reliability`: per-step rates sorted by impact, the compounding curve, the what-if ranking. */
export function ReliabilityPage() {
  const { filters, window, params, setFilters } = useDashboardFilters();
  const summary = useAnalytics('reliabilitySummary', params);
  const curve = useAnalytics('reliabilityCurve', params);

  const rows = useMemo(() => (summary.data ? prepareStepTable(summary.data) : []), [summary.data]);
  const whatIf = useMemo(() => (summary.data ? prepareWhatIf(summary.data, 5) : []), [summary.data]);
  const points = useMemo(() => (curve.data ? prepareCurve(curve.data) : []), [curve.data]);
  const gap = summary.data ? prepareGap(summary.data) : null;
  const completed = summary.data ? summary.data.runs.success + summary.data.runs.failure : 0;
  const noRuns = (): string | false => (completed === 0 ? 'No completed runs in this window' : false);

  return (
    <div className="dash-page" data-testid="page-reliability">
      <div className="page-head">
        <div>
          <h1>Reliability</h1>
          <p className="muted">
            Each step&apos;s success, what retries recover, and how much end-to-end success each step would add at 99%.
          </p>
        </div>
      </div>
      <DashboardFilterBar filters={filters} window={window} onChange={setFilters} />

      <Tile title="End-to-end success" testId="tile-reliability-summary" status={tileStatus([summary], noRuns)}>
        {() =>
          summary.data &&
          gap && (
            <div className="kpi-row">
              <SuccessKpis
                summary={summary.data}
                gap={gap}
                predictedLabel="Predicted (Π p(s)^k(s))"
                gapDetail="interval"
              />
              <Kpi
                label="Step-explained failures"
                display={formatCount(summary.data.decomposition.stepExplainedFailures)}
                value={summary.data.decomposition.stepExplainedFailures}
                testId="kpi-step-failures"
              />
              <Kpi
                label="Seam failures"
                display={formatCount(summary.data.decomposition.seamFailures)}
                value={summary.data.decomposition.seamFailures}
                testId="kpi-seam-failures"
              >
                failed although every step succeeded
              </Kpi>
              <Kpi
                label="Fallback recoveries"
                display={formatCount(summary.data.decomposition.fallbackRecoveries)}
                value={summary.data.decomposition.fallbackRecoveries}
                testId="kpi-fallbacks"
              />
            </div>
          )
        }
      </Tile>

      <div className="grid-2">
        <Tile
          title="What if one step reached 99%?"
          subtitle="The weakest links, by the end-to-end success they would add."
          testId="tile-what-if"
          status={tileStatus([summary], () => (whatIf.length === 0 ? 'No step would raise end-to-end success' : false))}
        >
          {() => (
            <ol className="sentence-list" data-testid="what-if">
              {whatIf.map((row) => (
                <li
                  key={row.stepName}
                  data-testid="what-if-row"
                  data-step={row.stepName}
                  data-value={row.predictedAfter}
                  data-gain={row.gain}
                >
                  {row.sentence}
                </li>
              ))}
            </ol>
          )}
        </Tile>
        <Tile
          title="Compounding: success vs steps per run"
          subtitle={
            curve.data?.perGroupSuccess != null
              ? `Fitted p̄ⁿ with p̄ = ${formatPercent(curve.data.perGroupSuccess)} per attempt group; band: 95% interval.`
              : undefined
          }
          testId="tile-curve"
          status={tileStatus([curve], () => (points.length === 0 ? 'No completed runs in this window' : false))}
        >
          {() => (
            <TimeLineChart
              testId="chart-curve"
              rows={points}
              xKey="groups"
              numericX
              lines={[
                { dataKey: 'observed', label: 'Observed', color: '#2563eb' },
                { dataKey: 'fitted', label: 'Fitted p̄ⁿ', color: '#d97706' },
              ]}
              bands={[{ dataKey: 'band', label: 'Observed 95%', color: '#2563eb' }]}
              format={pct}
              domain={[0, 1]}
            />
          )}
        </Tile>
      </div>

      <Tile
        title="Steps, by impact"
        subtitle="Sorted by the end-to-end gain if the step reached 99%. Eventual success counts retries."
        testId="tile-steps"
        status={tileStatus([summary], () => (rows.length === 0 ? 'No steps in this window' : false))}
      >
        {() => <StepTable rows={rows} />}
      </Tile>
    </div>
  );
}
