import { useState } from 'react';
import { projectInputSchema } from '@telltale/api-contract';
import { StatusView } from '../../components/StatusView';
import { MutationError } from '../../components/alerts/MutationError';
import { ProjectCreateForm, type ProjectFormValues } from '../../components/settings/ProjectCreateForm';
import { ProjectsTable } from '../../components/settings/ProjectsTable';
import { useCreateProject } from '../../hooks/useAdmin';
import type { ProjectRow } from '../../prepare/prepareAdminKeys';
import { NewButton, SectionHead } from '../../components/SectionHead';

const EMPTY: ProjectFormValues = { id: '', name: '' };

/** The projects, and a form for a new one. */
export function ProjectsSection({
  rows,
  selected,
  onSelect,
}: {
  rows: readonly ProjectRow[];
  selected: string | undefined;
  onSelect: (id: string) => void;
}) {
  const create = useCreateProject();
  const [creating, setCreating] = useState(false);
  const [form, setForm] = useState<ProjectFormValues>(EMPTY);
  const [error, setError] = useState<string | undefined>();

  const submit = () => {
    const name = form.name.trim();
    const parsed = projectInputSchema.safeParse({ id: form.id.trim(), ...(name === '' ? {} : { name }) });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'invalid');
      return;
    }
    setError(undefined);
    create.mutate(parsed.data, {
      onSuccess: (project) => {
        setCreating(false);
        setForm(EMPTY);
        onSelect(project.id);
      },
    });
  };

  return (
    <section className="card table-card" aria-label="Projects">
      <SectionHead
        title="Projects"
        note="Each project has its own data and keys. Quotas are changed with telltale projects update."
      >
        <NewButton
          label="New project"
          testId="new-project"
          hidden={creating}
          onClick={() => {
            create.reset();
            setCreating(true);
          }}
        />
      </SectionHead>
      {creating && (
        <ProjectCreateForm
          values={form}
          error={error}
          submitting={create.isPending}
          serverError={
            create.isError ? <MutationError error={create.error} testId="project-server-error" /> : undefined
          }
          onChange={setForm}
          onSubmit={submit}
          onCancel={() => setCreating(false)}
        />
      )}
      {rows.length === 0 ? (
        !creating && (
          <StatusView kind="empty" title="No projects yet">
            Create one here or with <code>telltale projects create &lt;id&gt;</code>.
          </StatusView>
        )
      ) : (
        <ProjectsTable rows={rows} selected={selected} onSelect={onSelect} />
      )}
    </section>
  );
}
