import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import '../../components/alerts/alerts.css';
import '../../components/settings/settings.css';
import { isApiError } from '../../api/ApiError';
import { ErrorView } from '../../components/ErrorView';
import { StatusView } from '../../components/StatusView';
import { AdminKeyPrompt } from '../../components/settings/AdminKeyPrompt';
import { OpenModeNote } from '../../components/settings/OpenModeNote';
import { useProjects, useSaveAdminKey } from '../../hooks/useAdmin';
import { prepareProjectRows, selectProject } from '../../prepare/prepareAdminKeys';
import { KeysSection } from './KeysSection';
import { ProjectsSection } from './ProjectsSection';

/**
 * `/settings`: projects and their API keys, through the server's admin API.
 * With `--auth keys` it asks for the admin key (kept in this browser like the
 * read key); in open mode it needs none, and says what projects and keys
 * do there. `?project=` picks the project.
 */
export function SettingsPage() {
  const [search, setSearch] = useSearchParams();
  const projects = useProjects();
  const saveAdminKey = useSaveAdminKey();
  const rows = useMemo(() => prepareProjectRows(projects.data?.projects ?? []), [projects.data]);
  const selected = selectProject(rows, search.get('project'));
  const select = (id: string) =>
    setSearch((prev) => {
      const next = new URLSearchParams(prev);
      next.set('project', id);
      return next;
    });

  return (
    <div className="settings-page">
      <div className="page-head">
        <div>
          <h1>Settings</h1>
          <p className="muted">
            Projects and their API keys: ingest keys send spans, read keys open the API and this dashboard.
          </p>
        </div>
      </div>
      {projects.isPending ? (
        <StatusView kind="loading" title="Loading projects…" />
      ) : projects.isError ? (
        isApiError(projects.error) && (projects.error.status === 401 || projects.error.status === 403) ? (
          <AdminKeyPrompt message={projects.error.message} onAdminKey={saveAdminKey} />
        ) : (
          <ErrorView title="Could not load projects" error={projects.error} onRetry={() => void projects.refetch()} />
        )
      ) : (
        <>
          {projects.data.auth === 'none' && <OpenModeNote />}
          <ProjectsSection rows={rows} selected={selected} onSelect={select} />
          {selected !== undefined && (
            <KeysSection projectId={selected} projectName={rows.find((r) => r.id === selected)?.name ?? selected} />
          )}
        </>
      )}
    </div>
  );
}
