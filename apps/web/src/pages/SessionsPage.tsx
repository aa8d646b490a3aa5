import { useMemo } from 'react';
import { useNavigate } from 'react-router';
import { DashboardFilterBar } from '../components/DashboardFilterBar';
import { ErrorView } from '../components/ErrorView';
import { Pager } from '../components/Pager';
import { SessionsTable } from '../components/SessionsTable';
import { StatusView } from '../components/StatusView';
import { useDashboardFilters } from '../hooks/useDashboardFilters';
import { useSaveReadKey } from '../hooks/useReadKey';
import { useSessions } from '../hooks/useSessions';
import { DEFAULT_FILTERS, filtersToSearch } from '../prepare/dashboardFilters';
import { preparePagination } from '../prepare/preparePagination';
import { prepareSessionsTable } from '../prepare/prepareSessionsTable';
import { parseSessionsPage, sessionsPageToSearch, sessionsQuery } from '../prepare/sessionsFilters';

/** The sessions route filters by service only. */
const SESSION_FIELDS = ['service'] as const;

/** `/sessions`: runs grouped by session / conversation, most recently active first; a row opens the session's runs. */
export function SessionsPage() {
  const { filters: shared, window, setFilters: setShared, search } = useDashboardFilters();
  const navigate = useNavigate();
  const saveReadKey = useSaveReadKey();
  const page = parseSessionsPage(search);
  const query = useMemo(() => sessionsQuery(page, shared, window), [page, shared, window]);
  const sessions = useSessions(query);
  const data = sessions.data;
  const rows = useMemo(() => (data ? prepareSessionsTable(data.sessions, search.toString()) : []), [data, search]);
  const filtered = shared.service !== '';

  return (
    <div className="sessions-page dash-page">
      <div>
        <h1>Sessions</h1>
        <p className="muted">
          Runs grouped by conversation or session (<code>gen_ai.conversation.id</code>, <code>session.id</code>), most
          recently active first. Open a session to see its runs.
        </p>
      </div>

      <DashboardFilterBar filters={shared} window={window} fields={SESSION_FIELDS} onChange={setShared} />

      <section className="card table-card" aria-label="Sessions">
        {sessions.isPending ? (
          <StatusView kind="loading" title="Loading sessions…" />
        ) : sessions.isError ? (
          <ErrorView
            title="Could not load sessions"
            error={sessions.error}
            onRetry={() => void sessions.refetch()}
            onReadKey={saveReadKey}
          />
        ) : rows.length === 0 ? (
          <StatusView
            kind="empty"
            title={
              filtered
                ? 'No sessions match these filters'
                : page > 1
                  ? 'No sessions on this page'
                  : 'No sessions in this time range'
            }
            action={
              filtered || page > 1 ? (
                <button
                  type="button"
                  className="button"
                  onClick={() =>
                    void navigate({
                      search: `?${filtersToSearch({ ...DEFAULT_FILTERS, range: shared.range, fromMs: shared.fromMs, toMs: shared.toMs }).toString()}`,
                    })
                  }
                >
                  Show all sessions
                </button>
              ) : undefined
            }
          >
            {!filtered && page === 1 && (
              <>
                Runs join a session when their spans carry <code>gen_ai.conversation.id</code> or{' '}
                <code>session.id</code> (with the Telltale SDK: <code>tt.run(name, fn, {'{ sessionId }'})</code>).
              </>
            )}
          </StatusView>
        ) : (
          <SessionsTable rows={rows} stale={sessions.isPlaceholderData} onOpen={(row) => void navigate(row.href)} />
        )}
        {data && (data.total > 0 || page > 1) && (
          <Pager
            pagination={preparePagination({ ...data, shown: data.sessions.length }, { noun: 'sessions' })}
            onPage={(next) => void navigate({ search: `?${sessionsPageToSearch(next, search).toString()}` })}
          />
        )}
      </section>
    </div>
  );
}
