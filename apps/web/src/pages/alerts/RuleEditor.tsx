import { useState } from 'react';
import type { AlertRule, Destination } from '@telltale/api-contract';
import { MutationError } from '../../components/alerts/MutationError';
import { RuleForm } from '../../components/alerts/RuleForm';
import { useSaveAlertRule } from '../../hooks/useAlertsMutations';
import type { RuleFormErrors, RuleFormValues } from '../../prepare/prepareRuleForm';
import { DEFAULT_RULE_FORM, ruleToFormValues, toRuleSpec } from '../../prepare/prepareRuleForm';

/** Creates a rule (no `rule`) or edits one: validates like the server, then saves. */
export function RuleEditor({
  rule,
  destinations,
  onSaved,
  onCancel,
}: {
  rule?: AlertRule;
  destinations: readonly Destination[];
  onSaved: (rule: AlertRule) => void;
  onCancel: () => void;
}) {
  const [values, setValues] = useState<RuleFormValues>(() => (rule ? ruleToFormValues(rule) : DEFAULT_RULE_FORM));
  const [errors, setErrors] = useState<RuleFormErrors>({});
  const save = useSaveAlertRule(rule?.id);
  return (
    <RuleForm
      values={values}
      errors={errors}
      destinations={destinations}
      submitLabel={rule ? 'Save changes' : 'Create rule'}
      submitting={save.isPending}
      serverError={save.isError ? <MutationError error={save.error} testId="rule-server-error" /> : undefined}
      onChange={(next) => {
        setValues(next);
        if (Object.keys(errors).length > 0) setErrors({});
      }}
      onCancel={onCancel}
      onSubmit={() => {
        const result = toRuleSpec(values);
        if (!result.ok) {
          setErrors(result.errors);
          return;
        }
        setErrors({});
        // Not `mutate(spec, { onSuccess })`: that callback is dropped when this editor unmounts before the save
        // settles, and the refresh that follows a save can re-render the page around it. A failure is shown
        // from `save.error`.
        save.mutateAsync(result.spec).then(onSaved, () => undefined);
      }}
    />
  );
}
