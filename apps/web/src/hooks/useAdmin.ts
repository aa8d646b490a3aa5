import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createKey, createProject, fetchProjectKeys, fetchProjects, revokeKey } from '../api/adminApi';
import { storeAdminKey } from '../api/adminKey';
import type { KeyInput, ProjectInput } from '@telltale/api-contract';

/** Every admin query key starts here, so a change (or a new admin key) refreshes them all. */
export const ADMIN_KEY = ['admin'] as const;

export function useProjects() {
  return useQuery({ queryKey: [...ADMIN_KEY, 'projects'], queryFn: ({ signal }) => fetchProjects({ signal }) });
}

/** A project's keys (nothing while no project is chosen). */
export function useProjectKeys(projectId: string | undefined) {
  return useQuery({
    queryKey: [...ADMIN_KEY, 'keys', projectId],
    queryFn: ({ signal }) => fetchProjectKeys(projectId ?? '', { signal }),
    enabled: projectId !== undefined,
  });
}

function useRefreshAdmin(): () => Promise<void> {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ADMIN_KEY });
}

export function useCreateProject() {
  const refresh = useRefreshAdmin();
  return useMutation({ mutationFn: (input: ProjectInput) => createProject(input), onSuccess: refresh });
}

/** Creates a key; the result's `secret` is shown once and kept nowhere (not in the query cache either). */
export function useCreateKey() {
  const refresh = useRefreshAdmin();
  return useMutation({
    mutationFn: ({ projectId, input }: { projectId: string; input: KeyInput }) => createKey(projectId, input),
    onSuccess: refresh,
  });
}

export function useRevokeKey() {
  const refresh = useRefreshAdmin();
  return useMutation({ mutationFn: (keyId: string) => revokeKey(keyId), onSuccess: refresh });
}

/** Stores the admin key and refetches every admin query with it. */
export function useSaveAdminKey(): (key: string) => void {
  const queryClient = useQueryClient();
  return (key) => {
    storeAdminKey(key);
    void queryClient.resetQueries({ queryKey: ADMIN_KEY });
  };
}
