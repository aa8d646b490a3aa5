import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { LATENCY_LEVELS, type LatencyLevel } from '@telltale/api-contract';
import { DashboardFilterBar } from '../components/DashboardFilterBar';
import { HistogramChart } from '../components/HistogramChart';
import { Tile } from '../components/Tile';
import { TimeLineChart } from '../components/TimeLineChart';
import { formatCount, formatDuration } from '../format';
import { useAnalytics } from '../hooks/useAnalytics';
import { useDashboardFilters } from '../hooks/useDashboardFilters';
import {
  LEVEL_LABELS,
  LINE_CANDIDATES,
  latencyChartTitle,
  preparePercentileTable,
  prepareRunDurationMarks,
  prepareSlowestLines,
  prepareTail,
} from '../prepare/prepareLatency';
import { prepareHistogram } from '../prepare/prepareHistogram';
import { prepareLatencyOptions } from '../prepare/prepareLatencyOptions';
import { timeLabel } from '../prepare/prepareTimeBuckets';
import { tileStatus } from '../prepare/tileStatus';
import { nanoseconds } from '../units';

const ms = (v: number): string => formatDuration(nanoseconds(v * 1e6));

/** `/latency`: percentile lines per step / tool / model, the run-duration distribution, and what drives the tail. */
export function LatencyPage() {
  const { filters, window, params, setFilters } = useDashboardFilters();
  const [search, setSearch] = useSearchParams();
  const { groupBy, level } = prepareLatencyOptions(search);
  const setOption = (key: 'groupBy' | 'level', value: string): void => {
    setSearch((current) => {
      const next = new URLSearchParams(current);
      next.set(key, value);
      return next;
    });
  };
  const label = (t: number): string => timeLabel(t, window.toMs - window.fromMs);

  // sketch percentiles (±1%): the step / tool / model groupings then read the per-minute rollups
  const series = useAnalytics('latencySeries', { ...params, groupBy, top: LINE_CANDIDATES, precision: 'sketch' });
  const groups = useAnalytics('latencyPercentiles', { ...params, groupBy, precision: 'sketch' });
  const runs = useAnalytics('latencyPercentiles', { ...params, groupBy: 'run' });
  const tail = useAnalytics('latencyTail', params);
  const histogram = useAnalytics('latencyHistogram', { ...params, buckets: 40 });

  const lines = useMemo(
    () => (series.data && groups.data ? prepareSlowestLines(series.data, groups.data, level, label) : null),
    [series.data, groups.data, level, window],
  );
  const table = useMemo(() => (groups.data ? preparePercentileTable(groups.data).slice(0, 50) : []), [groups.data]);
  const marks = useMemo(() => (runs.data ? prepareRunDurationMarks(runs.data) : []), [runs.data]);
  const tailView = useMemo(() => (tail.data ? prepareTail(tail.data) : null), [tail.data]);
  const histogramView = useMemo(
    () =>
      histogram.data
        ? prepareHistogram(
            histogram.data,
            marks
              .filter((m) => m.level === 'p50' || m.level === 'p95' || m.level === 'p99')
              .map((m) => ({ key: m.level, label: m.label, value: m.ns })),
            (ns) => ns / 1e6,
            (ns) => formatDuration(nanoseconds(ns)),
          )
        : null,
    [histogram.data, marks],
  );

  return (
    <div className="dash-page" data-testid="page-latency">
      <div className="page-head">
        <div>
          <h1>Latency</h1>
          <p className="muted">
            Percentiles over time, the run-duration distribution, and the step that makes the slowest runs slow.
          </p>
        </div>
      </div>
      <DashboardFilterBar filters={filters} window={window} onChange={setFilters} />

      <Tile
        title={lines?.title ?? latencyChartTitle(level, groupBy)}
        testId="tile-latency-lines"
        status={tileStatus([series, groups], () =>
          lines === null || lines.lines.length === 0 ? 'No spans in this window' : false,
        )}
        subtitle={
          <span className="segmented">
            <select
              value={groupBy}
              onChange={(e) => setOption('groupBy', e.target.value)}
              data-testid="latency-group-by"
              aria-label="Group by"
            >
              <option value="step">per step</option>
              <option value="tool">per tool</option>
              <option value="model">per model</option>
              <option value="agent">per agent</option>
            </select>
            <select
              value={level}
              onChange={(e) => setOption('level', e.target.value)}
              data-testid="latency-level"
              aria-label="Percentile"
            >
              {LATENCY_LEVELS.map((l: LatencyLevel) => (
                <option key={l} value={l}>
                  {LEVEL_LABELS[l]}
                </option>
              ))}
            </select>
          </span>
        }
      >
        {() =>
          lines && (
            <TimeLineChart testId="chart-latency" rows={lines.rows} lines={lines.lines} format={ms} height={280} />
          )
        }
      </Tile>

      <div className="grid-2">
        <Tile
          title="Run duration distribution"
          subtitle="Completed runs by duration; P50, P95 and P99 marked."
          testId="tile-run-duration"
          status={tileStatus([runs, histogram], () =>
            marks.length === 0 || histogramView === null || histogramView.bars.length === 0
              ? 'No completed runs in this window'
              : false,
          )}
        >
          {() =>
            histogramView && (
              <>
                <HistogramChart view={histogramView} format={ms} testId="run-duration-histogram" />
                <ul className="mark-list small muted" data-testid="run-duration">
                  {marks.map((m) => (
                    <li key={m.level} data-testid="run-duration-value" data-key={m.level} data-value={m.ms}>
                      {m.label} <strong>{m.valueLabel}</strong>
                    </li>
                  ))}
                </ul>
              </>
            )
          }
        </Tile>
        <Tile
          title="What drives the tail"
          testId="tile-tail"
          status={tileStatus([tail], () =>
            tail.data?.tailRuns === 0 ? 'Not enough completed runs for a tail' : false,
          )}
        >
          {() =>
            tailView && (
              <div data-testid="tail" data-driver={tailView.driver ?? ''}>
                <p className="tail-sentence">{tailView.sentence}</p>
                <p className="muted small" data-testid="tail-basis">
                  {tailView.basis}
                </p>
                <div className="table-wrap">
                  <table className="table">
                    <thead>
                      <tr>
                        <th scope="col">Step</th>
                        <th scope="col" className="num">
                          Share in slowest runs
                        </th>
                        <th scope="col" className="num">
                          Share in median runs
                        </th>
                        <th scope="col" className="num">
                          Growth
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {tailView.rows.map((r) => (
                        <tr
                          key={r.stepName}
                          className={r.isDriver ? 'highlight' : undefined}
                          data-testid="tail-row"
                          data-step={r.stepName}
                          data-value={r.delta}
                        >
                          <td>{r.label}</td>
                          <td className="num">{r.tailLabel}</td>
                          <td className="num">{r.medianLabel}</td>
                          <td className="num">{r.deltaLabel}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              </div>
            )
          }
        </Tile>
      </div>

      <Tile
        title={`Percentiles by ${groupBy}`}
        subtitle="Slowest P99 first."
        testId="tile-latency-table"
        status={tileStatus([groups], () => (table.length === 0 ? 'No spans in this window' : false))}
      >
        {() => (
          <div className="table-wrap">
            <table className="table" data-testid="latency-table">
              <thead>
                <tr>
                  <th scope="col">{groupBy}</th>
                  <th scope="col" className="num">
                    Count
                  </th>
                  <th scope="col" className="num">
                    P50
                  </th>
                  <th scope="col" className="num">
                    P90
                  </th>
                  <th scope="col" className="num">
                    P95
                  </th>
                  <th scope="col" className="num">
                    P99
                  </th>
                  <th scope="col" className="num">
                    P99.9
                  </th>
                </tr>
              </thead>
              <tbody>
                {table.map((r) => (
                  <tr key={r.key} data-testid="latency-row" data-key={r.key} data-value={r.p99Ns}>
                    <td>
                      <code>{r.key}</code>
                    </td>
                    <td className="num">{formatCount(r.count)}</td>
                    <td className="num">{r.p50}</td>
                    <td className="num">{r.p90}</td>
                    <td className="num">{r.p95}</td>
                    <td className="num">{r.p99}</td>
                    <td className="num">{r.p999}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Tile>
    </div>
  );
}
