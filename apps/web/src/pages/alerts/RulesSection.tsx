import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { ErrorView } from '../../components/ErrorView';
import { StatusView } from '../../components/StatusView';
import { RulesTable } from '../../components/alerts/RulesTable';
import { useAlertDestinations, useAlertRules, useAlertStates } from '../../hooks/useAlerts';
import { useSaveReadKey } from '../../hooks/useReadKey';
import { prepareRuleRows, ruleHref } from '../../prepare/prepareAlertRules';
import { RuleEditor } from './RuleEditor';
import { NewButton, SectionHead } from '../../components/SectionHead';

/** The rules with their current state, and "New rule". */
export function RulesSection() {
  const navigate = useNavigate();
  const saveReadKey = useSaveReadKey();
  const rules = useAlertRules();
  const states = useAlertStates();
  const destinations = useAlertDestinations();
  const [creating, setCreating] = useState(false);
  const rows = useMemo(
    () => prepareRuleRows(rules.data ?? [], states.data ?? [], destinations.data ?? []),
    [rules.data, states.data, destinations.data],
  );

  return (
    <section className="card table-card" aria-label="Alert rules">
      <SectionHead
        title="Rules"
        note="Evaluated on a schedule against the reliability metrics; live loops fire as spans arrive."
      >
        <NewButton label="New rule" testId="new-rule" hidden={creating} onClick={() => setCreating(true)} />
      </SectionHead>
      {creating && (
        <RuleEditor
          destinations={destinations.data ?? []}
          onCancel={() => setCreating(false)}
          onSaved={(rule) => void navigate(ruleHref(rule.id))}
        />
      )}
      {rules.isPending ? (
        <StatusView kind="loading" title="Loading alert rules…" />
      ) : rules.isError ? (
        <ErrorView
          title="Could not load alert rules"
          error={rules.error}
          onRetry={() => void rules.refetch()}
          onReadKey={saveReadKey}
        />
      ) : rows.length === 0 ? (
        !creating && (
          <StatusView
            kind="empty"
            title="No alert rules yet"
            action={
              <button type="button" className="button" onClick={() => setCreating(true)}>
                Create the first rule
              </button>
            }
          >
            A rule watches a metric (end-to-end success, a step&apos;s latency, loops, cost…) and notifies its
            destinations when it crosses a threshold.
          </StatusView>
        )
      ) : (
        <>
          {states.isError && (
            <ErrorView
              title="Could not load the current states"
              error={states.error}
              onRetry={() => void states.refetch()}
            />
          )}
          <RulesTable rows={rows} />
        </>
      )}
    </section>
  );
}
