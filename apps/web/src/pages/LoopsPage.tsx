import { useMemo } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { LOOP_KINDS } from '@telltale/semconv';
import { DashboardFilterBar } from '../components/DashboardFilterBar';
import { Kpi } from '../components/Kpi';
import { Pager } from '../components/Pager';
import { Tile } from '../components/Tile';
import { formatCount, formatDuration, formatPercent, formatUsd } from '../format';
import { useAnalytics } from '../hooks/useAnalytics';
import { useDashboardFilters } from '../hooks/useDashboardFilters';
import { LOOP_KIND_LABELS, prepareLoopKinds, prepareLoopRows } from '../prepare/prepareLoops';
import { LOOPS_PAGE_SIZE, prepareLoopsOptions } from '../prepare/prepareLoopsOptions';
import { preparePagination } from '../prepare/preparePagination';
import { tileStatus } from '../prepare/tileStatus';
import { fraction, usd } from '../units';

/** `/loops`: looping runs with what repeated, how often, and the time and money it wasted. */
export function LoopsPage() {
  const { filters, window, params, setFilters } = useDashboardFilters();
  const [search, setSearch] = useSearchParams();
  const navigate = useNavigate();
  const { kind, orderBy, page } = prepareLoopsOptions(search);
  const setOption = (change: Record<string, string | undefined>): void => {
    setSearch((current) => {
      const next = new URLSearchParams(current);
      for (const [key, value] of Object.entries(change)) {
        if (value === undefined || value === '') next.delete(key);
        else next.set(key, value);
      }
      if (!('page' in change)) next.delete('page');
      return next;
    });
  };

  const loops = useAnalytics('loops', {
    ...params,
    kind,
    orderBy,
    limit: LOOPS_PAGE_SIZE,
    offset: (page - 1) * LOOPS_PAGE_SIZE,
  });
  const rows = useMemo(() => (loops.data ? prepareLoopRows(loops.data) : []), [loops.data]);
  const kinds = useMemo(() => (loops.data ? prepareLoopKinds(loops.data) : []), [loops.data]);
  const overall = loops.data?.overall;
  // what the looping runs cost as whole runs (a repeat's wasted cost is its own span's only)
  const cost = useAnalytics('costSummary', params);
  const looping = cost.data?.looping;
  const loopingRunsUsd = looping ? usd(looping.costUsd + looping.failedUsd) : undefined;

  return (
    <div className="dash-page" data-testid="page-loops">
      <div className="page-head">
        <div>
          <h1>Loops</h1>
          <p className="muted">
            Runs that repeated an action, made no progress, ping-ponged between tools or ran away — and what the repeats
            cost.
          </p>
        </div>
      </div>
      <DashboardFilterBar filters={filters} window={window} onChange={setFilters} />

      <div className="grid-2">
        <Tile
          title="Loop totals"
          testId="tile-loop-totals"
          status={tileStatus([loops], () => (loops.data?.runs === 0 ? 'No runs in this window' : false))}
        >
          {() =>
            loops.data &&
            overall && (
              <div className="kpi-row">
                <Kpi
                  label="Looping runs"
                  display={formatCount(overall.runsFlagged)}
                  value={overall.runsFlagged}
                  testId="kpi-looping-runs"
                >
                  of {formatCount(loops.data.runs)} runs
                </Kpi>
                <Kpi
                  label="Loop rate"
                  display={formatPercent(fraction(loops.data.runs > 0 ? overall.runsFlagged / loops.data.runs : 0))}
                  value={loops.data.runs > 0 ? overall.runsFlagged / loops.data.runs : 0}
                  testId="kpi-loop-rate"
                />
                <Kpi
                  label="Wasted time"
                  display={formatDuration(overall.wastedNs)}
                  value={overall.wastedNs}
                  testId="kpi-loop-wasted-time"
                />
                <Kpi
                  label="Wasted cost"
                  display={formatUsd(overall.wastedCostUsd)}
                  value={overall.wastedCostUsd}
                  testId="kpi-loop-wasted-usd"
                  tone={overall.wastedCostUsd > 0 ? 'bad' : 'neutral'}
                >
                  the repeats' own
                </Kpi>
                {loopingRunsUsd !== undefined && (
                  <Kpi
                    label="Looping runs cost"
                    display={formatUsd(loopingRunsUsd)}
                    value={loopingRunsUsd}
                    testId="kpi-looping-runs-usd"
                    tone={loopingRunsUsd > 0 ? 'bad' : 'neutral'}
                  >
                    whole runs, failed or not
                  </Kpi>
                )}
              </div>
            )
          }
        </Tile>
        <Tile title="By kind" testId="tile-loop-kinds" status={tileStatus([loops], () => false)}>
          {() => (
            <div className="table-wrap">
              <table className="table" data-testid="loop-kinds">
                <thead>
                  <tr>
                    <th scope="col">Kind</th>
                    <th scope="col" className="num">
                      Runs
                    </th>
                    <th scope="col" className="num">
                      Detections
                    </th>
                    <th scope="col" className="num">
                      Wasted time
                    </th>
                    <th scope="col" className="num">
                      Wasted cost
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {kinds.map((k) => (
                    <tr key={k.kind} data-testid="loop-kind-row" data-kind={k.kind} data-value={k.detections}>
                      <td>{k.label}</td>
                      <td className="num">{formatCount(k.runs)}</td>
                      <td className="num">{formatCount(k.detections)}</td>
                      <td className="num">{k.wastedTimeLabel}</td>
                      <td className="num">{k.wastedCostLabel}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </Tile>
      </div>

      <Tile
        title="Loop detections"
        subtitle={
          <span className="segmented">
            <select
              value={kind ?? ''}
              onChange={(e) => setOption({ kind: e.target.value })}
              data-testid="loop-kind-filter"
              aria-label="Kind"
            >
              <option value="">All kinds</option>
              {LOOP_KINDS.map((k) => (
                <option key={k} value={k}>
                  {LOOP_KIND_LABELS[k]}
                </option>
              ))}
            </select>
            <select
              value={orderBy}
              onChange={(e) => setOption({ orderBy: e.target.value })}
              data-testid="loop-order"
              aria-label="Order"
            >
              <option value="wasted_cost">Most wasted cost</option>
              <option value="wasted_time">Most wasted time</option>
              <option value="recent">Most recent</option>
            </select>
          </span>
        }
        testId="tile-loop-detections"
        status={tileStatus([loops], () =>
          rows.length === 0
            ? kind
              ? `No ${LOOP_KIND_LABELS[kind].toLowerCase()} loops in this window`
              : 'No loops in this window'
            : false,
        )}
      >
        {() => (
          <>
            <div className={loops.isPlaceholderData ? 'table-wrap stale' : 'table-wrap'}>
              <table className="table" data-testid="loops-table">
                <thead>
                  <tr>
                    <th scope="col">Run</th>
                    <th scope="col">Agent</th>
                    <th scope="col">Outcome</th>
                    <th scope="col">Kind</th>
                    <th scope="col">Repeated</th>
                    <th scope="col" className="num">
                      Count
                    </th>
                    <th scope="col" className="num">
                      Wasted time
                    </th>
                    <th scope="col" className="num">
                      Wasted cost
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((row) => (
                    <tr
                      key={row.key}
                      className="clickable"
                      data-testid="loop-row"
                      data-run-id={row.runId}
                      data-kind={row.kind}
                      data-count={row.count}
                      data-wasted-ns={row.wastedNs}
                      data-wasted-usd={row.wastedCostUsd}
                      onClick={(e) => {
                        if (!(e.target instanceof Element && e.target.closest('a'))) void navigate(row.href);
                      }}
                    >
                      <td className="run-name-cell">
                        <Link to={row.href} className="mono run-id">
                          {row.runId}
                        </Link>
                      </td>
                      <td>{row.agent}</td>
                      <td>{row.outcome}</td>
                      <td>{row.kindLabel}</td>
                      <td>
                        <code>{row.subject}</code>
                      </td>
                      <td className="num">{formatCount(row.count)}</td>
                      <td className="num">{row.wastedTimeLabel}</td>
                      <td className="num">{row.wastedCostLabel}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {loops.data && (
              <Pager
                pagination={preparePagination(
                  { total: loops.data.total, limit: LOOPS_PAGE_SIZE, offset: loops.data.offset, shown: rows.length },
                  { noun: 'detections', newestFirst: orderBy === 'recent' },
                )}
                onPage={(p) => setOption({ page: String(p) })}
              />
            )}
          </>
        )}
      </Tile>
    </div>
  );
}
