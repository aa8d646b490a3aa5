import { useMemo, useState } from 'react';
import { destinationInputSchema } from '@telltale/api-contract';
import { ErrorView } from '../../components/ErrorView';
import { StatusView } from '../../components/StatusView';
import type { DestinationFormErrors, DestinationFormValues } from '../../components/alerts/DestinationForm';
import { DestinationForm } from '../../components/alerts/DestinationForm';
import { DestinationsTable } from '../../components/alerts/DestinationsTable';
import { MutationError } from '../../components/alerts/MutationError';
import { SecretReveal } from '../../components/alerts/SecretReveal';
import { useAlertDestinations } from '../../hooks/useAlerts';
import {
  useCreateDestination,
  useDeleteDestination,
  useRotateSecret,
  useSendTestNotification,
  useUpdateDestination,
} from '../../hooks/useAlertsMutations';
import { useSaveReadKey } from '../../hooks/useReadKey';
import { describeTestResult, prepareDestinationRows } from '../../prepare/prepareAlertDelivery';
import { NewButton, SectionHead } from '../../components/SectionHead';

const EMPTY_FORM: DestinationFormValues = { name: '', url: '', format: 'standard' };

type Feedback =
  | { kind: 'secret'; title: string; secret: string }
  | { kind: 'result'; ok: boolean; text: string }
  | { kind: 'error'; error: unknown }
  | { kind: 'confirm-delete'; id: string; name: string };

/** Webhook destinations: create (the secret is shown once), test, rotate, disable/enable, delete. */
export function DestinationsSection() {
  const saveReadKey = useSaveReadKey();
  const destinations = useAlertDestinations();
  const rows = useMemo(() => prepareDestinationRows(destinations.data ?? []), [destinations.data]);
  const [creating, setCreating] = useState(false);
  const [form, setForm] = useState<DestinationFormValues>(EMPTY_FORM);
  const [formErrors, setFormErrors] = useState<DestinationFormErrors>({});
  const [feedback, setFeedback] = useState<Feedback | undefined>();
  const [busyId, setBusyId] = useState<string | undefined>();

  const create = useCreateDestination();
  const update = useUpdateDestination();
  const remove = useDeleteDestination();
  const test = useSendTestNotification();
  const rotate = useRotateSecret();

  const nameOf = (id: string) => rows.find((r) => r.id === id)?.name ?? id;
  const run = <T,>(id: string, action: (id: string) => Promise<T>, done: (result: T) => Feedback | undefined) => {
    setBusyId(id);
    setFeedback(undefined);
    void action(id)
      .then(
        (result) => setFeedback(done(result)),
        (error: unknown) => setFeedback({ kind: 'error', error }),
      )
      .finally(() => setBusyId(undefined));
  };

  const submit = () => {
    const parsed = destinationInputSchema.safeParse({
      name: form.name.trim(),
      url: form.url.trim(),
      format: form.format,
    });
    if (!parsed.success) {
      const errors: DestinationFormErrors = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path[0];
        const field = key === 'name' || key === 'url' || key === 'format' ? key : 'form';
        errors[field] ??= issue.message;
      }
      setFormErrors(errors);
      return;
    }
    setFormErrors({});
    create.mutate(parsed.data, {
      onSuccess: ({ destination, secret }) => {
        setCreating(false);
        setForm(EMPTY_FORM);
        setFeedback({ kind: 'secret', title: `Destination “${destination.name}” created`, secret });
      },
    });
  };

  return (
    <section className="card table-card" aria-label="Destinations">
      <SectionHead
        title="Destinations"
        note="Webhooks signed per Standard Webhooks (HMAC-SHA256), retried with backoff; a 410 Gone disables one."
      >
        <NewButton
          label="New destination"
          testId="new-destination"
          hidden={creating}
          onClick={() => {
            create.reset();
            setCreating(true);
          }}
        />
      </SectionHead>
      {creating && (
        <DestinationForm
          values={form}
          errors={formErrors}
          submitting={create.isPending}
          serverError={
            create.isError ? <MutationError error={create.error} testId="destination-server-error" /> : undefined
          }
          onChange={setForm}
          onSubmit={submit}
          onCancel={() => setCreating(false)}
        />
      )}
      {feedback && (
        <div className="alert-section-body" data-testid="destination-feedback">
          {feedback.kind === 'secret' ? (
            <SecretReveal title={feedback.title} secret={feedback.secret} onDismiss={() => setFeedback(undefined)} />
          ) : feedback.kind === 'result' ? (
            <div
              className={feedback.ok ? 'alert-callout alert-callout-ok' : 'alert-callout alert-callout-error'}
              role="status"
              data-testid="test-result"
              data-ok={feedback.ok}
            >
              {feedback.text}
            </div>
          ) : feedback.kind === 'error' ? (
            <MutationError error={feedback.error} testId="destination-action-error" />
          ) : (
            <div className="alert-callout alert-callout-error" role="alert">
              Delete destination “{feedback.name}”? Rules that use it stop notifying it.{' '}
              <button
                type="button"
                className="button button-danger"
                data-testid="destination-delete-confirm"
                onClick={() =>
                  run(
                    feedback.id,
                    (id) => remove.mutateAsync(id),
                    () => undefined,
                  )
                }
              >
                Delete
              </button>{' '}
              <button type="button" className="button button-quiet" onClick={() => setFeedback(undefined)}>
                Cancel
              </button>
            </div>
          )}
        </div>
      )}
      {destinations.isPending ? (
        <StatusView kind="loading" title="Loading destinations…" />
      ) : destinations.isError ? (
        <ErrorView
          title="Could not load destinations"
          error={destinations.error}
          onRetry={() => void destinations.refetch()}
          onReadKey={saveReadKey}
        />
      ) : rows.length === 0 ? (
        !creating && (
          <StatusView kind="empty" title="No destinations yet">
            Add a webhook URL (Telltale JSON, Slack or Alertmanager format) for rules to notify.
          </StatusView>
        )
      ) : (
        <DestinationsTable
          rows={rows}
          busyId={busyId}
          actions={{
            onTest: (id) =>
              run(
                id,
                (x) => test.mutateAsync(x),
                (result) => {
                  const described = describeTestResult(result);
                  return {
                    kind: 'result',
                    ok: described.tone === 'delivered',
                    text: `${nameOf(id)}: ${described.text}`,
                  };
                },
              ),
            onRotate: (id) =>
              run(
                id,
                (x) => rotate.mutateAsync(x),
                ({ secret }) => ({
                  kind: 'secret',
                  title: `New signing secret for “${nameOf(id)}” (the previous one keeps signing until the next rotation)`,
                  secret,
                }),
              ),
            onToggle: (id, enabled) =>
              run(
                id,
                (x) => update.mutateAsync({ id: x, change: { enabled } }),
                () => ({ kind: 'result', ok: true, text: `${nameOf(id)} ${enabled ? 'enabled' : 'disabled'}` }),
              ),
            onDelete: (id) => setFeedback({ kind: 'confirm-delete', id, name: nameOf(id) }),
          }}
        />
      )}
    </section>
  );
}
