import { Navigate, useSearchParams } from 'react-router';
import '../../components/alerts/alerts.css';
import { ruleHref } from '../../prepare/prepareAlertRules';
import { DeliveriesSection } from './DeliveriesSection';
import { DestinationsSection } from './DestinationsSection';
import { HistorySection } from './HistorySection';
import { RulesSection } from './RulesSection';

const TABS = [
  { id: 'rules', label: 'Rules' },
  { id: 'history', label: 'History' },
  { id: 'destinations', label: 'Destinations' },
  { id: 'deliveries', label: 'Delivery log' },
] as const;
type TabId = (typeof TABS)[number]['id'];

/**
 * `/alerts`: rules with their state, the history of state changes,
 * destinations and the delivery log, one tab each (`?tab=`). A notification's
 * link (`/alerts?rule=<id>`) opens the rule.
 */
export function AlertsPage() {
  const [search, setSearch] = useSearchParams();
  const linkedRule = search.get('rule');
  if (linkedRule) return <Navigate to={ruleHref(linkedRule)} replace />;
  const tab: TabId = TABS.find((t) => t.id === search.get('tab'))?.id ?? 'rules';

  return (
    <div className="alerts-page">
      <div className="page-head">
        <div>
          <h1>Alerts</h1>
          <p className="muted">
            Rules on reliability metrics, their current state and history, and where notifications go.
          </p>
        </div>
      </div>
      <div className="alert-tabs" role="tablist" aria-label="Alerts">
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            aria-selected={tab === t.id}
            className={tab === t.id ? 'alert-tab active' : 'alert-tab'}
            data-testid={`alerts-tab-${t.id}`}
            onClick={() => setSearch(t.id === 'rules' ? {} : { tab: t.id })}
          >
            {t.label}
          </button>
        ))}
      </div>
      {tab === 'rules' && <RulesSection />}
      {tab === 'history' && <HistorySection />}
      {tab === 'destinations' && <DestinationsSection />}
      {tab === 'deliveries' && <DeliveriesSection />}
    </div>
  );
}
