import { Outlet } from 'react-router';
import { DashboardFilterBar } from '../components/DashboardFilterBar';
import { StatusView } from '../components/StatusView';
import { useDashboardFilters } from '../hooks/useDashboardFilters';
import { isInvertedRange } from '../prepare/dashboardFilters';

/**
 * Around the pages that read the shared time range: an inverted custom range
 * (from after to) holds no time, so instead of a page of data for some other
 * window it shows the filter bar and says what is wrong.
 */
export function TimeRangeGuard() {
  const { filters, window, setFilters } = useDashboardFilters();
  if (!isInvertedRange(filters)) return <Outlet />;
  return (
    <div className="dash-page">
      <DashboardFilterBar filters={filters} window={window} onChange={setFilters} />
      <div className="card" data-testid="range-inverted">
        <StatusView
          kind="error"
          title="The time range is inverted"
          action={
            <button
              type="button"
              className="button"
              onClick={() => setFilters({ range: 'custom', fromMs: filters.toMs, toMs: filters.fromMs })}
              data-testid="range-swap"
            >
              Swap From and To
            </button>
          }
        >
          From is after To, so the range holds no time. Swap them, change one, or pick a preset range.
        </StatusView>
      </div>
    </div>
  );
}
