import { FAILURE_CAUSES } from '@telltale/semconv';
import type { ReactNode } from 'react';
import type { Destination } from '@telltale/api-contract';
import { ALERT_METRICS, COMPARISONS, ALERT_FILTER_KEYS, METRICS_NEEDING_STEP } from '@telltale/api-contract';
import { COMPARISON_INFO, METRIC_INFO, thresholdHint } from '../../prepare/prepareAlertValues';
import type { RuleFormErrors, RuleFormField, RuleFormValues } from '../../prepare/prepareRuleForm';
import { isFailureCause, needsCause, percentileOptions } from '../../prepare/prepareRuleForm';
import { FormActions } from '../FormActions';

interface RuleFormProps {
  values: RuleFormValues;
  errors: RuleFormErrors;
  destinations: readonly Destination[];
  submitLabel: string;
  submitting: boolean;
  /** The server's refusal, shown above the buttons. */
  serverError?: ReactNode;
  onChange: (values: RuleFormValues) => void;
  onSubmit: () => void;
  onCancel: () => void;
}

function Field({
  name,
  label,
  hint,
  error,
  children,
  wide,
}: {
  name: RuleFormField;
  label: string;
  hint?: string;
  error?: string | undefined;
  children: ReactNode;
  wide?: boolean;
}) {
  return (
    <label className={wide ? 'field alert-field alert-field-wide' : 'field alert-field'}>
      <span className="field-label">{label}</span>
      {children}
      {error ? (
        <span className="alert-field-error" data-testid={`rule-error-${name}`}>
          {error}
        </span>
      ) : (
        hint && <span className="muted small">{hint}</span>
      )}
    </label>
  );
}

/** Every part of a rule spec, as inputs; the page validates and saves. */
export function RuleForm({
  values,
  errors,
  destinations,
  submitLabel,
  submitting,
  serverError,
  onChange,
  onSubmit,
  onCancel,
}: RuleFormProps) {
  const set = (change: Partial<RuleFormValues>) => onChange({ ...values, ...change });
  const percentiles = percentileOptions(values.metric);
  const invalid = (field: RuleFormField) => (errors[field] ? true : undefined);
  return (
    <form
      className="alert-form"
      data-testid="rule-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <fieldset className="alert-fieldset">
        <legend>Rule</legend>
        <Field name="name" label="Name" error={errors.name} wide>
          <input
            type="text"
            data-testid="rule-field-name"
            value={values.name}
            aria-invalid={invalid('name')}
            onChange={(e) => set({ name: e.target.value })}
          />
        </Field>
        <Field name="description" label="Description" error={errors.description} wide>
          <input
            type="text"
            data-testid="rule-field-description"
            value={values.description}
            onChange={(e) => set({ description: e.target.value })}
          />
        </Field>
        <label className="alert-checkbox">
          <input
            type="checkbox"
            data-testid="rule-field-enabled"
            checked={values.enabled}
            onChange={(e) => set({ enabled: e.target.checked })}
          />{' '}
          Enabled
        </label>
      </fieldset>

      <fieldset className="alert-fieldset">
        <legend>Condition</legend>
        <Field name="metric" label="Metric" error={errors.metric}>
          <select
            data-testid="rule-field-metric"
            value={values.metric}
            onChange={(e) => {
              const metric = ALERT_METRICS.find((m) => m === e.target.value) ?? values.metric;
              set({
                metric,
                percentile: percentileOptions(metric).some((p) => p === values.percentile) ? values.percentile : '',
                cause: needsCause(metric) ? values.cause : '',
              });
            }}
          >
            {ALERT_METRICS.map((m) => (
              <option key={m} value={m}>
                {METRIC_INFO[m].label}
              </option>
            ))}
          </select>
        </Field>
        {percentiles.length > 0 && (
          <Field name="percentile" label="Percentile" error={errors.percentile}>
            <select
              data-testid="rule-field-percentile"
              value={values.percentile}
              onChange={(e) => set({ percentile: percentiles.find((p) => p === e.target.value) ?? '' })}
            >
              <option value="">p95 (default)</option>
              {percentiles.map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </select>
          </Field>
        )}
        {needsCause(values.metric) && (
          <Field name="cause" label="Failure cause" error={errors.cause}>
            <select
              data-testid="rule-field-cause"
              value={values.cause}
              onChange={(e) => set({ cause: isFailureCause(e.target.value) ? e.target.value : '' })}
            >
              <option value="">Choose a cause…</option>
              {FAILURE_CAUSES.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </Field>
        )}
        <Field name="comparison" label="Fires when the value is" error={errors.comparison}>
          <select
            data-testid="rule-field-comparison"
            value={values.comparison}
            onChange={(e) => set({ comparison: COMPARISONS.find((c) => c === e.target.value) ?? values.comparison })}
          >
            {COMPARISONS.map((c) => (
              <option key={c} value={c}>
                {COMPARISON_INFO[c].label}
              </option>
            ))}
          </select>
        </Field>
        <Field name="threshold" label="Threshold" hint={thresholdHint(values.metric)} error={errors.threshold}>
          <input
            type="text"
            inputMode="decimal"
            data-testid="rule-field-threshold"
            value={values.threshold}
            aria-invalid={invalid('threshold')}
            onChange={(e) => set({ threshold: e.target.value })}
          />
        </Field>
      </fieldset>

      <fieldset className="alert-fieldset">
        <legend>Timing</legend>
        <Field name="window" label="Window" hint="e.g. 10m, 1h, 1d" error={errors.window}>
          <input
            type="text"
            data-testid="rule-field-window"
            value={values.window}
            aria-invalid={invalid('window')}
            onChange={(e) => set({ window: e.target.value })}
          />
        </Field>
        <Field name="interval" label="Evaluate every" hint="e.g. 30s, 1m" error={errors.interval}>
          <input
            type="text"
            data-testid="rule-field-interval"
            value={values.interval}
            aria-invalid={invalid('interval')}
            onChange={(e) => set({ interval: e.target.value })}
          />
        </Field>
        <Field
          name="minSamples"
          label="Minimum samples"
          hint="fewer neither start nor resolve an alert"
          error={errors.minSamples}
        >
          <input
            type="text"
            inputMode="numeric"
            data-testid="rule-field-minSamples"
            value={values.minSamples}
            aria-invalid={invalid('minSamples')}
            onChange={(e) => set({ minSamples: e.target.value })}
          />
        </Field>
        <Field name="forDuration" label="For" hint="pending this long before firing" error={errors.forDuration}>
          <input
            type="text"
            data-testid="rule-field-for"
            value={values.forDuration}
            aria-invalid={invalid('forDuration')}
            onChange={(e) => set({ forDuration: e.target.value })}
          />
        </Field>
        <Field name="repeat" label="Repeat firing every" hint="0s: notify once" error={errors.repeat}>
          <input
            type="text"
            data-testid="rule-field-repeat"
            value={values.repeat}
            aria-invalid={invalid('repeat')}
            onChange={(e) => set({ repeat: e.target.value })}
          />
        </Field>
      </fieldset>

      <fieldset className="alert-fieldset">
        <legend>Filters</legend>
        {ALERT_FILTER_KEYS.map((key) => (
          <Field
            key={key}
            name={`filters.${key}`}
            label={key === 'step' && METRICS_NEEDING_STEP.has(values.metric) ? 'step (required)' : key}
            error={errors[`filters.${key}`]}
          >
            <input
              type="text"
              data-testid={`rule-field-filter-${key}`}
              value={values.filters[key]}
              placeholder="any"
              aria-invalid={invalid(`filters.${key}`)}
              onChange={(e) => set({ filters: { ...values.filters, [key]: e.target.value } })}
            />
          </Field>
        ))}
      </fieldset>

      <fieldset className="alert-fieldset">
        <legend>Notifications</legend>
        <Field name="labels" label="Labels" hint="one name=value per line" error={errors.labels} wide>
          <textarea
            rows={3}
            data-testid="rule-field-labels"
            value={values.labels}
            aria-invalid={invalid('labels')}
            onChange={(e) => set({ labels: e.target.value })}
          />
        </Field>
        <div className="field alert-field alert-field-wide">
          <span className="field-label">Destinations</span>
          {destinations.length === 0 ? (
            <span className="muted small">No destinations yet: add one under Destinations to be notified.</span>
          ) : (
            <div className="alert-destination-choices">
              {destinations.map((d) => (
                <label key={d.id} className="alert-checkbox">
                  <input
                    type="checkbox"
                    data-testid="rule-field-destination"
                    data-destination-id={d.id}
                    checked={values.destinationIds.includes(d.id)}
                    onChange={(e) =>
                      set({
                        destinationIds: e.target.checked
                          ? [...values.destinationIds, d.id]
                          : values.destinationIds.filter((id) => id !== d.id),
                      })
                    }
                  />{' '}
                  {d.name} {!d.enabled && <span className="muted small">(disabled)</span>}
                </label>
              ))}
            </div>
          )}
          {errors.destinationIds && (
            <span className="alert-field-error" data-testid="rule-error-destinationIds">
              {errors.destinationIds}
            </span>
          )}
        </div>
      </fieldset>

      {errors.form && (
        <div className="alert-callout alert-callout-error" role="alert" data-testid="rule-error-form">
          {errors.form}
        </div>
      )}
      {serverError}
      <FormActions
        submitting={submitting}
        submitLabel={submitLabel}
        busyLabel="Saving…"
        onCancel={onCancel}
        submitTestId="rule-submit"
        cancelTestId="rule-cancel"
      />
    </form>
  );
}
