import { useMemo } from 'react';
import { useNavigate } from 'react-router';
import { RUN_OUTCOMES } from '@telltale/api-contract';
import { DashboardFilterBar } from '../components/DashboardFilterBar';
import { ErrorView } from '../components/ErrorView';
import { OutcomeChart } from '../components/OutcomeChart';
import { Pager } from '../components/Pager';
import { RunsTable } from '../components/RunsTable';
import { SessionChip } from '../components/SessionChip';
import { StatusView } from '../components/StatusView';
import { useAnalytics } from '../hooks/useAnalytics';
import { useDashboardFilters } from '../hooks/useDashboardFilters';
import { useSaveReadKey } from '../hooks/useReadKey';
import { useRuns } from '../hooks/useRuns';
import { OUTCOME_SWATCHES } from '../palette';
import { DEFAULT_FILTERS, filtersToSearch, hasNameFilter } from '../prepare/dashboardFilters';
import { prepareOutcomeChart } from '../prepare/prepareOutcomeChart';
import { preparePagination } from '../prepare/preparePagination';
import { prepareRunAnnotations } from '../prepare/prepareRunAnnotations';
import { prepareRunsTable } from '../prepare/prepareRunsTable';
import type { RunsFilters } from '../prepare/runsFilters';
import { parseRunsFilters, runsFiltersToQuery, runsFiltersToSearch, updateRunsFilters } from '../prepare/runsFilters';

/** `/runs`: filterable, paginated list of runs, newest first; the shared filters, outcome and page live in the URL. */
export function RunsPage() {
  const { filters: shared, window, params, setFilters: setShared, search } = useDashboardFilters();
  const navigate = useNavigate();
  const saveReadKey = useSaveReadKey();
  const filters = useMemo(() => parseRunsFilters(search), [search]);
  const setFilters = (change: Partial<RunsFilters>): void => {
    void navigate({ search: `?${runsFiltersToSearch(updateRunsFilters(filters, change), search).toString()}` });
  };

  const query = useMemo(() => runsFiltersToQuery(filters, shared, window), [filters, shared, window]);
  const runs = useRuns(query);
  const data = runs.data;
  // causes and loop flags of the runs on this page (at most a page of ids)
  const runIds = useMemo(() => (data ? data.runs.map((r) => r.runId).join(',') : ''), [data]);
  const failedIds = useMemo(
    () =>
      data
        ? data.runs
            .filter((r) => r.outcome === 'failure')
            .map((r) => r.runId)
            .join(',')
        : '',
    [data],
  );
  const causes = useAnalytics('failureRuns', { from: params.from, to: params.to, runIds: failedIds }, failedIds !== '');
  const loops = useAnalytics('loopRuns', { from: params.from, to: params.to, runIds }, runIds !== '');
  const annotations = useMemo(() => prepareRunAnnotations(causes.data, loops.data), [causes.data, loops.data]);
  const rows = useMemo(
    () => (data ? prepareRunsTable(data.runs, undefined, annotations, search.toString()) : []),
    [data, annotations, search],
  );
  const bars = useMemo(() => prepareOutcomeChart(data?.runs ?? []), [data]);
  const filtered = filters.outcome !== undefined || filters.session !== '' || hasNameFilter(shared);

  return (
    <div className="runs-page dash-page">
      <div className="runs-head">
        <div>
          <h1>Runs</h1>
          <p className="muted">
            {filters.session ? (
              <>
                The runs of session <code className="mono">{filters.session}</code>, newest first. Open a run to see its
                steps as a waterfall.
              </>
            ) : (
              'Agent runs, newest first, with the primary cause of each failure and any loop. Open a run to see its steps as a waterfall.'
            )}
          </p>
        </div>
        <section className="card chart-card" aria-label="Outcomes on this page">
          <h2 className="card-title">Outcomes on this page</h2>
          {data ? (
            <OutcomeChart bars={bars} height={78} />
          ) : (
            <div className="chart-placeholder" style={{ height: 78 }} />
          )}
        </section>
      </div>

      <DashboardFilterBar filters={shared} window={window} onChange={setShared}>
        <label className="field">
          <span className="field-label">Outcome</span>
          <select
            value={filters.outcome ?? ''}
            onChange={(e) => setFilters({ outcome: RUN_OUTCOMES.find((o) => o === e.target.value) })}
            data-testid="filter-outcome"
          >
            <option value="">All outcomes</option>
            {RUN_OUTCOMES.map((outcome) => (
              <option key={outcome} value={outcome}>
                {OUTCOME_SWATCHES[outcome].label}
              </option>
            ))}
          </select>
        </label>
        {filters.session && <SessionChip sessionId={filters.session} onRemove={() => setFilters({ session: '' })} />}
      </DashboardFilterBar>

      <section className="card table-card" aria-label="Runs">
        {runs.isPending ? (
          <StatusView kind="loading" title="Loading runs…" />
        ) : runs.isError ? (
          <ErrorView
            title="Could not load runs"
            error={runs.error}
            onRetry={() => void runs.refetch()}
            onReadKey={saveReadKey}
          />
        ) : rows.length === 0 ? (
          <StatusView
            kind="empty"
            title={
              filtered
                ? 'No runs match these filters'
                : filters.page > 1
                  ? 'No runs on this page'
                  : 'No runs in this time range'
            }
            action={
              filtered || filters.page > 1 ? (
                <button
                  type="button"
                  className="button"
                  onClick={() =>
                    void navigate({
                      search: `?${filtersToSearch({ ...DEFAULT_FILTERS, range: shared.range, fromMs: shared.fromMs, toMs: shared.toMs }).toString()}`,
                    })
                  }
                >
                  Show all runs
                </button>
              ) : undefined
            }
          >
            {!filtered && filters.page === 1 && (
              <>
                Widen the time range, instrument an agent with the Telltale SDK, or point any OpenTelemetry exporter at{' '}
                <code>/v1/traces</code>.
              </>
            )}
          </StatusView>
        ) : (
          <RunsTable
            rows={rows}
            stale={runs.isPlaceholderData}
            annotated={!causes.isFetching && !loops.isFetching}
            onOpen={(row) => void navigate(row.href)}
          />
        )}
        {data && (data.total > 0 || filters.page > 1) && (
          <Pager
            pagination={preparePagination({ ...data, shown: data.runs.length })}
            onPage={(page) => setFilters({ page })}
          />
        )}
      </section>
    </div>
  );
}
