import type { ReactNode } from 'react';
import type { DestinationFormat } from '@telltale/api-contract';
import { DESTINATION_FORMATS } from '@telltale/api-contract';
import { FormActions } from '../FormActions';

export interface DestinationFormValues {
  name: string;
  url: string;
  format: DestinationFormat;
}

export type DestinationFormErrors = Partial<Record<keyof DestinationFormValues | 'form', string>>;

const FORMAT_LABEL: Readonly<Record<DestinationFormat, string>> = {
  standard: 'Telltale JSON (Standard Webhooks)',
  slack: 'Slack incoming webhook',
  alertmanager: 'Alertmanager webhook',
};

/** A new webhook destination. */
export function DestinationForm({
  values,
  errors,
  submitting,
  serverError,
  onChange,
  onSubmit,
  onCancel,
}: {
  values: DestinationFormValues;
  errors: DestinationFormErrors;
  submitting: boolean;
  serverError?: ReactNode;
  onChange: (values: DestinationFormValues) => void;
  onSubmit: () => void;
  onCancel: () => void;
}) {
  const set = (change: Partial<DestinationFormValues>) => onChange({ ...values, ...change });
  return (
    <form
      className="alert-form"
      data-testid="destination-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <fieldset className="alert-fieldset">
        <legend>New destination</legend>
        <label className="field alert-field">
          <span className="field-label">Name</span>
          <input
            type="text"
            data-testid="destination-field-name"
            value={values.name}
            onChange={(e) => set({ name: e.target.value })}
          />
          {errors.name && <span className="alert-field-error">{errors.name}</span>}
        </label>
        <label className="field alert-field alert-field-wide">
          <span className="field-label">URL</span>
          <input
            type="url"
            data-testid="destination-field-url"
            placeholder="https://hooks.example.com/telltale"
            value={values.url}
            onChange={(e) => set({ url: e.target.value })}
          />
          {errors.url ? (
            <span className="alert-field-error">{errors.url}</span>
          ) : (
            <span className="muted small">
              Private and loopback addresses are refused unless the server allows them.
            </span>
          )}
        </label>
        <label className="field alert-field alert-field-fit">
          <span className="field-label">Format</span>
          <select
            data-testid="destination-field-format"
            value={values.format}
            onChange={(e) => set({ format: DESTINATION_FORMATS.find((f) => f === e.target.value) ?? values.format })}
          >
            {DESTINATION_FORMATS.map((f) => (
              <option key={f} value={f}>
                {FORMAT_LABEL[f]}
              </option>
            ))}
          </select>
        </label>
      </fieldset>
      {serverError}
      <FormActions
        submitting={submitting}
        submitLabel="Create destination"
        busyLabel="Creating…"
        onCancel={onCancel}
        submitTestId="destination-submit"
      />
    </form>
  );
}
