import { useMemo, useState } from 'react';
import { ErrorView } from '../../components/ErrorView';
import { StatusView } from '../../components/StatusView';
import { MutationError } from '../../components/alerts/MutationError';
import { KeyCreateForm, type KeyFormValues } from '../../components/settings/KeyCreateForm';
import { KeySecretReveal } from '../../components/settings/KeySecretReveal';
import { KeysTable } from '../../components/settings/KeysTable';
import { useCreateKey, useProjectKeys, useRevokeKey } from '../../hooks/useAdmin';
import { keyUsage, prepareKeyRows } from '../../prepare/prepareAdminKeys';
import { NewButton, SectionHead } from '../../components/SectionHead';

const EMPTY: KeyFormValues = { kind: 'ingest', name: '' };

type Feedback =
  | { kind: 'secret'; title: string; secret: string; usage: string }
  | { kind: 'confirm-revoke'; keyId: string; label: string }
  | { kind: 'error'; error: unknown }
  | { kind: 'revoked'; label: string };

/** A project's keys: create one (its secret shown once), revoke one (after a confirmation). */
export function KeysSection({ projectId, projectName }: { projectId: string; projectName: string }) {
  const keys = useProjectKeys(projectId);
  const rows = useMemo(() => prepareKeyRows(keys.data ?? []), [keys.data]);
  const create = useCreateKey();
  const revoke = useRevokeKey();
  const [creating, setCreating] = useState(false);
  const [form, setForm] = useState<KeyFormValues>(EMPTY);
  const [feedback, setFeedback] = useState<Feedback | undefined>();

  const submit = () => {
    const name = form.name.trim();
    create.mutate(
      { projectId, input: { kind: form.kind, ...(name === '' ? {} : { name }) } },
      {
        onSuccess: ({ key, secret }) => {
          setCreating(false);
          setForm(EMPTY);
          setFeedback({
            kind: 'secret',
            title: `New ${key.kind} key for “${projectName}”`,
            secret,
            usage: keyUsage(key.kind, window.location.origin),
          });
        },
      },
    );
  };
  const confirmRevoke = (keyId: string, label: string) => {
    setFeedback(undefined);
    revoke.mutate(keyId, {
      onSuccess: () => setFeedback({ kind: 'revoked', label }),
      onError: (error) => setFeedback({ kind: 'error', error }),
    });
  };

  return (
    <section
      className="card table-card"
      aria-label={`Keys of ${projectName}`}
      data-testid="keys-section"
      data-project-id={projectId}
    >
      <SectionHead
        title={`Keys of ${projectName}`}
        note="Secrets are shown once, when a key is created. A revoked key is refused within seconds."
      >
        <NewButton
          label="New key"
          testId="new-key"
          hidden={creating}
          onClick={() => {
            create.reset();
            setFeedback(undefined);
            setCreating(true);
          }}
        />
      </SectionHead>
      {creating && (
        <KeyCreateForm
          projectId={projectId}
          values={form}
          submitting={create.isPending}
          serverError={create.isError ? <MutationError error={create.error} testId="key-server-error" /> : undefined}
          onChange={setForm}
          onSubmit={submit}
          onCancel={() => setCreating(false)}
        />
      )}
      {feedback && (
        <div className="alert-section-body" data-testid="key-feedback">
          {feedback.kind === 'secret' ? (
            <KeySecretReveal
              title={feedback.title}
              secret={feedback.secret}
              usage={feedback.usage}
              onDismiss={() => setFeedback(undefined)}
            />
          ) : feedback.kind === 'confirm-revoke' ? (
            <div className="alert-callout alert-callout-error" role="alert">
              Revoke key “{feedback.label}”? Clients using it are refused from now on; this cannot be undone.{' '}
              <button
                type="button"
                className="button button-danger"
                data-testid="key-revoke-confirm"
                onClick={() => confirmRevoke(feedback.keyId, feedback.label)}
              >
                Revoke
              </button>{' '}
              <button
                type="button"
                className="button button-quiet"
                data-testid="key-revoke-cancel"
                onClick={() => setFeedback(undefined)}
              >
                Cancel
              </button>
            </div>
          ) : feedback.kind === 'revoked' ? (
            <div className="alert-callout alert-callout-ok" role="status" data-testid="key-revoked">
              Key “{feedback.label}” revoked.
            </div>
          ) : (
            <MutationError error={feedback.error} testId="key-action-error" />
          )}
        </div>
      )}
      {keys.isPending ? (
        <StatusView kind="loading" title="Loading keys…" />
      ) : keys.isError ? (
        <ErrorView title="Could not load keys" error={keys.error} onRetry={() => void keys.refetch()} />
      ) : rows.length === 0 ? (
        !creating && (
          <StatusView kind="empty" title="No keys yet">
            Create an ingest key for your agents’ exporters, and a read key for the API.
          </StatusView>
        )
      ) : (
        <KeysTable
          rows={rows}
          busyId={revoke.isPending ? revoke.variables : undefined}
          onRevoke={(keyId) => {
            const row = rows.find((r) => r.keyId === keyId);
            setFeedback({
              kind: 'confirm-revoke',
              keyId,
              label: row === undefined ? keyId : `${row.name} (${row.hint})`,
            });
          }}
        />
      )}
    </section>
  );
}
