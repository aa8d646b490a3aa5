import { useEffect, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { RUN_OUTCOMES } from '../api/schemas';
import { ErrorView } from '../components/ErrorView';
import { OutcomeChart } from '../components/OutcomeChart';
import type { OutcomeOption } from '../components/RunsFilterBar';
import { RunsFilterBar } from '../components/RunsFilterBar';
import { Pager } from '../components/Pager';
import { RunsTable } from '../components/RunsTable';
import { StatusView } from '../components/StatusView';
import { useDebouncedValue } from '../hooks/useDebouncedValue';
import { useSaveReadKey } from '../hooks/useReadKey';
import { useRuns } from '../hooks/useRuns';
import { OUTCOME_SWATCHES } from '../palette';
import { prepareOutcomeChart } from '../prepare/prepareOutcomeChart';
import { preparePagination } from '../prepare/preparePagination';
import { prepareRunsTable } from '../prepare/prepareRunsTable';
import type { RunsFilters } from '../prepare/runsFilters';
import { DEFAULT_RUNS_FILTERS, parseRunsFilters, runsFiltersToQuery, runsFiltersToSearch, updateRunsFilters } from '../prepare/runsFilters';

const OUTCOME_OPTIONS: readonly OutcomeOption[] = [
  { value: '', label: 'All outcomes' },
  ...RUN_OUTCOMES.map((outcome) => ({ value: outcome, label: OUTCOME_SWATCHES[outcome].label })),
];

/** `/runs`: filterable, paginated list of runs, newest first; filters live in the URL. */
export function RunsPage() {
  const [search, setSearch] = useSearchParams();
  const navigate = useNavigate();
  const saveReadKey = useSaveReadKey();
  const filters = useMemo(() => parseRunsFilters(search), [search]);
  const setFilters = (change: Partial<RunsFilters>, replace = false) => {
    setSearch(runsFiltersToSearch(updateRunsFilters(filters, change)), { replace });
  };

  // The service box writes the URL once typing pauses, replacing the history entry;
  // the URL (back/forward, Clear) writes the box back unless they already agree.
  const [serviceInput, setServiceInput] = useState(filters.service);
  const debouncedService = useDebouncedValue(serviceInput, 300);
  useEffect(() => {
    setServiceInput((current) => (current.trim() === filters.service ? current : filters.service));
  }, [filters.service]);
  useEffect(() => {
    const next = debouncedService.trim();
    if (next !== filters.service) setFilters({ service: next }, true);
  }, [debouncedService]);

  const query = useMemo(() => runsFiltersToQuery(filters), [filters]);
  const runs = useRuns(query);
  const data = runs.data;
  const rows = useMemo(() => (data ? prepareRunsTable(data.runs) : []), [data]);
  const bars = useMemo(() => prepareOutcomeChart(data?.runs ?? []), [data]);
  const filtered = filters.outcome !== undefined || filters.service !== '' || filters.from !== undefined || filters.to !== undefined;

  return (
    <div className="runs-page">
      <div className="runs-head">
        <div>
          <h1>Runs</h1>
          <p className="muted">Agent runs, newest first. Open a run to see its steps as a waterfall.</p>
        </div>
        <section className="card chart-card" aria-label="Outcomes on this page">
          <h2 className="card-title">Outcomes on this page</h2>
          {data ? <OutcomeChart bars={bars} height={78} /> : <div className="chart-placeholder" style={{ height: 78 }} />}
        </section>
      </div>

      <section className="card table-card" aria-label="Runs">
        <div className="filters-card">
          <RunsFilterBar
            outcome={filters.outcome ?? ''}
            outcomeOptions={OUTCOME_OPTIONS}
            service={serviceInput}
            canClear={filtered}
            onOutcomeChange={(value) => setFilters({ outcome: RUN_OUTCOMES.find((o) => o === value) })}
            onServiceChange={setServiceInput}
            onClear={() => {
              setServiceInput('');
              setSearch(runsFiltersToSearch(DEFAULT_RUNS_FILTERS));
            }}
          />
        </div>
        {runs.isPending ? (
          <StatusView kind="loading" title="Loading runs…" />
        ) : runs.isError ? (
          <ErrorView title="Could not load runs" error={runs.error} onRetry={() => void runs.refetch()} onReadKey={saveReadKey} />
        ) : rows.length === 0 ? (
          <StatusView
            kind="empty"
            title={filtered ? 'No runs match these filters' : filters.page > 1 ? 'No runs on this page' : 'No runs yet'}
            action={
              filtered || filters.page > 1 ? (
                <button type="button" className="button" onClick={() => setSearch(runsFiltersToSearch(DEFAULT_RUNS_FILTERS))}>
                  Show all runs
                </button>
              ) : undefined
            }
          >
            {!filtered && filters.page === 1 && (
              <>
                Instrument an agent with the Telltale SDK, or point any OpenTelemetry exporter at <code>/v1/traces</code>.
              </>
            )}
          </StatusView>
        ) : (
          <RunsTable rows={rows} stale={runs.isPlaceholderData} onOpen={(row) => void navigate(row.href)} />
        )}
        {data && (data.total > 0 || filters.page > 1) && (
          <Pager pagination={preparePagination({ ...data, shown: data.runs.length })} onPage={(page) => setFilters({ page })} />
        )}
      </section>
    </div>
  );
}
