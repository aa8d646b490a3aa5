import { useMemo, useState } from 'react';
import { ErrorView } from '../../components/ErrorView';
import { StatusView } from '../../components/StatusView';
import { AttemptsTable, DeliveryLogTable } from '../../components/alerts/DeliveryLogTable';
import { MutationError } from '../../components/alerts/MutationError';
import { OffsetPager } from '../../components/alerts/OffsetPager';
import {
  useAlertDestinations,
  useAlertNotification,
  useAlertNotifications,
  useAlertRules,
} from '../../hooks/useAlerts';
import { useRedeliver } from '../../hooks/useAlertsMutations';
import { useSaveReadKey } from '../../hooks/useReadKey';
import { prepareAttemptRows, prepareNotificationRows } from '../../prepare/prepareAlertDelivery';
import { prepareOffsetPage } from '../../prepare/prepareAlertHistory';
import { SectionHead } from '../../components/SectionHead';

const PAGE_SIZE = 25;
const DELIVERY_STATES = ['pending', 'delivered', 'failed'] as const;
type DeliveryStateFilter = (typeof DELIVERY_STATES)[number];

/** The delivery log: notifications newest first, each with its attempts and a redeliver action. */
export function DeliveriesSection({ ruleId }: { ruleId?: string }) {
  const saveReadKey = useSaveReadKey();
  const [page, setPage] = useState(1);
  const [openId, setOpenId] = useState<string | undefined>();
  const [state, setState] = useState<DeliveryStateFilter | undefined>();
  const offset = (page - 1) * PAGE_SIZE;
  const notifications = useAlertNotifications({ ruleId, state, limit: PAGE_SIZE + 1, offset });
  const rules = useAlertRules();
  const destinations = useAlertDestinations();
  const list = notifications.data?.notifications;
  const rows = useMemo(
    () => prepareNotificationRows((list ?? []).slice(0, PAGE_SIZE), rules.data ?? [], destinations.data ?? []),
    [list, rules.data, destinations.data],
  );

  return (
    <section className="card table-card" aria-label="Delivery log">
      <SectionHead
        title="Delivery log"
        note="Every notification with every HTTP attempt; redelivery sends the same webhook-id and body again."
      >
        <label className="field">
          <span className="field-label">Delivery</span>
          <select
            data-testid="deliveries-filter-state"
            value={state ?? ''}
            onChange={(e) => {
              setState(DELIVERY_STATES.find((s) => s === e.target.value));
              setPage(1);
            }}
          >
            <option value="">Any</option>
            {DELIVERY_STATES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
      </SectionHead>
      {notifications.isPending ? (
        <StatusView kind="loading" title="Loading the delivery log…" />
      ) : notifications.isError ? (
        <ErrorView
          title="Could not load the delivery log"
          error={notifications.error}
          onRetry={() => void notifications.refetch()}
          onReadKey={saveReadKey}
        />
      ) : rows.length === 0 ? (
        <StatusView
          kind="empty"
          title={page > 1 ? 'No older notifications' : state ? `No ${state} notifications` : 'No notifications yet'}
        >
          {page === 1 && !state && 'Firing and resolved alerts, and test notifications, show up here.'}
        </StatusView>
      ) : (
        <DeliveryLogTable
          rows={rows}
          openId={openId}
          stale={notifications.isPlaceholderData}
          onToggle={(id) => setOpenId((current) => (current === id ? undefined : id))}
          detail={openId === undefined ? null : <NotificationDetail notificationId={openId} />}
        />
      )}
      {list && (page > 1 || list.length > 0) && (
        <OffsetPager
          page={prepareOffsetPage({ offset, pageSize: PAGE_SIZE, received: list.length })}
          onPage={setPage}
          testId="deliveries-pager"
        />
      )}
    </section>
  );
}

function NotificationDetail({ notificationId }: { notificationId: string }) {
  const detail = useAlertNotification(notificationId);
  const redeliver = useRedeliver();
  const attempts = useMemo(() => prepareAttemptRows(detail.data?.attempts ?? []), [detail.data]);
  if (detail.isPending) return <StatusView kind="loading" title="Loading attempts…" />;
  if (detail.isError)
    return (
      <ErrorView title="Could not load this notification" error={detail.error} onRetry={() => void detail.refetch()} />
    );
  return (
    <div className="alert-form" data-testid="notification-detail">
      <AttemptsTable rows={attempts} />
      <div className="alert-form-actions">
        <button
          type="button"
          className="button"
          disabled={redeliver.isPending}
          onClick={() => redeliver.mutate(notificationId)}
          data-testid="notification-redeliver"
        >
          {redeliver.isPending ? 'Queueing…' : 'Redeliver'}
        </button>
        {redeliver.isSuccess && (
          <span className="muted small" role="status" data-testid="redeliver-queued">
            Queued again with the same webhook-id.
          </span>
        )}
      </div>
      {redeliver.isError && <MutationError error={redeliver.error} />}
      <details>
        <summary className="small">Payload as sent</summary>
        <pre className="small">{JSON.stringify(detail.data.notification.payload, null, 2)}</pre>
      </details>
    </div>
  );
}
