import type { ReactNode } from 'react';
import { FormActions } from '../FormActions';

export interface ProjectFormValues {
  id: string;
  name: string;
}

/** Id (a slug) and display name of a new project. */
export function ProjectCreateForm({
  values,
  error,
  submitting,
  serverError,
  onChange,
  onSubmit,
  onCancel,
}: {
  values: ProjectFormValues;
  error: string | undefined;
  submitting: boolean;
  serverError?: ReactNode;
  onChange: (values: ProjectFormValues) => void;
  onSubmit: () => void;
  onCancel: () => void;
}) {
  return (
    <form
      className="alert-form"
      aria-label="New project"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <label className="alert-field">
        <span>Id</span>
        <input
          type="text"
          placeholder="checkout-agents"
          value={values.id}
          aria-invalid={error !== undefined}
          onChange={(e) => onChange({ ...values, id: e.target.value })}
          data-testid="project-id-input"
        />
        {error && <span className="alert-field-error">{error}</span>}
      </label>
      <label className="alert-field">
        <span>Name (optional)</span>
        <input
          type="text"
          maxLength={256}
          value={values.name}
          onChange={(e) => onChange({ ...values, name: e.target.value })}
          data-testid="project-name-input"
        />
      </label>
      {serverError}
      <FormActions
        submitting={submitting}
        submitLabel="Create project"
        busyLabel="Creating…"
        onCancel={onCancel}
        submitTestId="project-create-submit"
      />
    </form>
  );
}
