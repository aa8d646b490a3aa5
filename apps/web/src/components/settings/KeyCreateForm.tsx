import type { ReactNode } from 'react';
import type { ApiKeyKind } from '@telltale/api-contract';
import { FormActions } from '../FormActions';

export interface KeyFormValues {
  kind: ApiKeyKind;
  name: string;
}

/** Kind and label of a new key. */
export function KeyCreateForm({
  projectId,
  values,
  submitting,
  serverError,
  onChange,
  onSubmit,
  onCancel,
}: {
  projectId: string;
  values: KeyFormValues;
  submitting: boolean;
  serverError?: ReactNode;
  onChange: (values: KeyFormValues) => void;
  onSubmit: () => void;
  onCancel: () => void;
}) {
  return (
    <form
      className="alert-form"
      aria-label={`New key for ${projectId}`}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <label className="alert-field">
        <span>Kind</span>
        <select
          value={values.kind}
          onChange={(e) => onChange({ ...values, kind: e.target.value === 'read' ? 'read' : 'ingest' })}
          data-testid="key-kind"
        >
          <option value="ingest">Ingest: sends OTLP (/v1/traces) only</option>
          <option value="read">Read: calls the API and the dashboard only</option>
        </select>
      </label>
      <label className="alert-field">
        <span>Label (optional)</span>
        <input
          type="text"
          maxLength={256}
          placeholder="ci, checkout-agent…"
          value={values.name}
          onChange={(e) => onChange({ ...values, name: e.target.value })}
          data-testid="key-name"
        />
      </label>
      {serverError}
      <FormActions
        submitting={submitting}
        submitLabel="Create key"
        busyLabel="Creating…"
        onCancel={onCancel}
        submitTestId="key-create-submit"
      />
    </form>
  );
}
