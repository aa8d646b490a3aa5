import { useMemo, useState } from 'react';
import { ErrorView } from '../../components/ErrorView';
import { StatusView } from '../../components/StatusView';
import { HistoryTable } from '../../components/alerts/HistoryTable';
import { OffsetPager } from '../../components/alerts/OffsetPager';
import { useAlertHistory, useAlertRules } from '../../hooks/useAlerts';
import { useSaveReadKey } from '../../hooks/useReadKey';
import { prepareHistoryRows, prepareOffsetPage } from '../../prepare/prepareAlertHistory';
import { SectionHead } from '../../components/SectionHead';

export const HISTORY_PAGE_SIZE = 25;

/** State changes, newest first, a page at a time; one rule's only when `ruleId` is given. */
export function HistorySection({ ruleId }: { ruleId?: string }) {
  const saveReadKey = useSaveReadKey();
  const [page, setPage] = useState(1);
  const [chosenRule, setChosenRule] = useState('');
  const offset = (page - 1) * HISTORY_PAGE_SIZE;
  // One row more than shown tells whether there is an older page.
  const history = useAlertHistory({
    ruleId: ruleId ?? (chosenRule || undefined),
    limit: HISTORY_PAGE_SIZE + 1,
    offset,
  });
  const rules = useAlertRules();
  const events = history.data?.events;
  const rows = useMemo(
    () => prepareHistoryRows((events ?? []).slice(0, HISTORY_PAGE_SIZE), rules.data ?? []),
    [events, rules.data],
  );

  return (
    <section className="card table-card" aria-label="Alert history">
      <SectionHead title="History" note="Every state change (ok → pending → firing → resolved), newest first.">
        {ruleId === undefined && (rules.data?.length ?? 0) > 0 && (
          <label className="field">
            <span className="field-label">Rule</span>
            <select
              data-testid="history-filter-rule"
              value={chosenRule}
              onChange={(e) => {
                setChosenRule(e.target.value);
                setPage(1);
              }}
            >
              <option value="">All rules</option>
              {rules.data?.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.name}
                </option>
              ))}
            </select>
          </label>
        )}
      </SectionHead>
      {history.isPending ? (
        <StatusView kind="loading" title="Loading history…" />
      ) : history.isError ? (
        <ErrorView
          title="Could not load the alert history"
          error={history.error}
          onRetry={() => void history.refetch()}
          onReadKey={saveReadKey}
        />
      ) : rows.length === 0 ? (
        <StatusView kind="empty" title={page > 1 ? 'No older state changes' : 'No state changes yet'}>
          {page === 1 && 'A rule records a change here the first time it goes pending or fires.'}
        </StatusView>
      ) : (
        <HistoryTable rows={rows} showRule={ruleId === undefined} stale={history.isPlaceholderData} />
      )}
      {events && (page > 1 || events.length > 0) && (
        <OffsetPager
          page={prepareOffsetPage({ offset, pageSize: HISTORY_PAGE_SIZE, received: events.length })}
          onPage={setPage}
          testId="history-pager"
        />
      )}
    </section>
  );
}
