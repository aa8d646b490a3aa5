import { useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { isApiError } from '../../api/ApiError';
import '../../components/alerts/alerts.css';
import { AlertStateBadge } from '../../components/alerts/AlertStateBadge';
import { MutationError } from '../../components/alerts/MutationError';
import { StateGroupsTable } from '../../components/alerts/StateGroupsTable';
import { ErrorView } from '../../components/ErrorView';
import { StatusView } from '../../components/StatusView';
import { useAlertDestinations, useAlertRule } from '../../hooks/useAlerts';
import { useDeleteAlertRule } from '../../hooks/useAlertsMutations';
import { useSaveReadKey } from '../../hooks/useReadKey';
import { prepareRuleRows, prepareRuleSummary } from '../../prepare/prepareAlertRules';
import { DeliveriesSection } from './DeliveriesSection';
import { HistorySection } from './HistorySection';
import { RuleEditor } from './RuleEditor';
import { SectionHead } from '../../components/SectionHead';

/** `/alerts/rules/:ruleId`: one rule, its state per group, its history and notifications; edit and delete. */
export function AlertRulePage() {
  const { ruleId = '' } = useParams();
  const navigate = useNavigate();
  const saveReadKey = useSaveReadKey();
  const query = useAlertRule(ruleId);
  const destinations = useAlertDestinations();
  const remove = useDeleteAlertRule();
  const [editing, setEditing] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const data = query.data;
  const row = useMemo(
    () => (data ? prepareRuleRows([data.rule], data.states, destinations.data ?? [])[0] : undefined),
    [data, destinations.data],
  );
  const summary = useMemo(
    () => (data ? prepareRuleSummary(data.rule, destinations.data ?? []) : []),
    [data, destinations.data],
  );

  const breadcrumbs = (
    <nav className="breadcrumbs" aria-label="Breadcrumbs">
      <Link to="/alerts">Alerts</Link>
      <span className="muted">/</span>
      <span>{data?.rule.name ?? ruleId}</span>
    </nav>
  );

  if (query.isPending) return <StatusView kind="loading" title="Loading the rule…" />;
  if (query.isError) {
    return (
      <div className="alerts-page">
        {breadcrumbs}
        {isApiError(query.error) && query.error.isNotFound ? (
          <StatusView
            kind="empty"
            title="No such rule"
            action={
              <Link to="/alerts" className="button">
                All rules
              </Link>
            }
          >
            It may have been deleted.
          </StatusView>
        ) : (
          <ErrorView
            title="Could not load the rule"
            error={query.error}
            onRetry={() => void query.refetch()}
            onReadKey={saveReadKey}
          />
        )}
      </div>
    );
  }
  const { rule } = query.data;

  return (
    <div className="alerts-page" data-testid="alert-rule-page" data-rule-id={rule.id}>
      {breadcrumbs}
      <section className="card">
        <div className="section-head alert-rule-head">
          <div>
            <div className="alert-rule-title">
              <h1 data-testid="alert-rule-name">{rule.name}</h1>
              {row && (
                <AlertStateBadge
                  tone={rule.enabled ? row.tone : 'unknown'}
                  label={row.stateLabel}
                  testId="alert-rule-state"
                />
              )}
            </div>
            {rule.description && <p className="muted">{rule.description}</p>}
          </div>
          {!editing && (
            <div className="alert-actions">
              <button type="button" className="button" onClick={() => setEditing(true)} data-testid="rule-edit">
                Edit
              </button>
              <button
                type="button"
                className="button button-danger"
                onClick={() => setConfirmDelete(true)}
                data-testid="rule-delete"
              >
                Delete
              </button>
            </div>
          )}
        </div>
        {confirmDelete && (
          <div className="alert-section-body">
            <div className="alert-callout alert-callout-error" role="alert">
              Delete “{rule.name}”? Its state and history stop; notifications already sent stay in the delivery log.{' '}
              <button
                type="button"
                className="button button-danger"
                disabled={remove.isPending}
                data-testid="rule-delete-confirm"
                onClick={() => remove.mutate(rule.id, { onSuccess: () => void navigate('/alerts', { replace: true }) })}
              >
                Delete rule
              </button>{' '}
              <button type="button" className="button button-quiet" onClick={() => setConfirmDelete(false)}>
                Cancel
              </button>
              {remove.isError && <MutationError error={remove.error} />}
            </div>
          </div>
        )}
        {editing ? (
          <RuleEditor
            rule={rule}
            destinations={destinations.data ?? []}
            onCancel={() => setEditing(false)}
            onSaved={() => setEditing(false)}
          />
        ) : (
          <dl className="alert-summary" data-testid="alert-rule-summary">
            {summary.map((item) => (
              <div key={item.label}>
                <dt>{item.label}</dt>
                <dd data-testid={`rule-summary-${item.label.toLowerCase().replace(/\s+/g, '-')}`}>{item.value}</dd>
              </div>
            ))}
          </dl>
        )}
      </section>

      <section className="card table-card" aria-label="Current state">
        <SectionHead title="Current state" />
        {row && row.groups.length > 0 ? (
          <StateGroupsTable rows={row.groups} />
        ) : (
          <StatusView kind="empty" title={rule.enabled ? 'Not evaluated yet' : 'This rule is disabled'}>
            {rule.enabled && 'The evaluator records a state at the next evaluation.'}
          </StatusView>
        )}
      </section>

      <HistorySection ruleId={rule.id} />
      <DeliveriesSection ruleId={rule.id} />
    </div>
  );
}
