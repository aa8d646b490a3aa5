/** A form's submit and cancel buttons: the submit shows `busyLabel` and is disabled while the form is submitting. */
export function FormActions({
  submitting,
  submitLabel,
  busyLabel,
  onCancel,
  submitTestId,
  cancelTestId,
}: {
  submitting: boolean;
  submitLabel: string;
  busyLabel: string;
  onCancel: () => void;
  submitTestId: string;
  cancelTestId?: string;
}) {
  return (
    <div className="alert-form-actions">
      <button type="submit" className="button button-primary" disabled={submitting} data-testid={submitTestId}>
        {submitting ? busyLabel : submitLabel}
      </button>
      <button type="button" className="button button-quiet" onClick={onCancel} data-testid={cancelTestId}>
        Cancel
      </button>
    </div>
  );
}
