import type { Store } from '../Store.js';
import { clientOf } from '../internal/storeRunners.js';

/** The run ids a project has facts for, in order (tests of the catch-up). */
export async function factRunIds(store: Store, projectId: string): Promise<string[]> {
  const result = await clientOf(store).query({
    query: 'SELECT run_id FROM run_facts FINAL WHERE project_id = {projectId:String} ORDER BY run_id',
    format: 'JSONEachRow',
    query_params: { projectId },
  });
  return (await result.json<{ run_id: string }>()).map((r) => r.run_id);
}
