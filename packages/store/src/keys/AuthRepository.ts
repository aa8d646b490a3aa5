import type { ClickHouseClient } from '@clickhouse/client';
import { createProject, updateProject, listProjects, getProject } from '../projects/projects.js';
import { insertApiKey, listApiKeys, revokeApiKey, listApiKeyRecords } from './apiKeys.js';

/** The arguments of a store function after its client. */
type Args<F> = F extends (client: ClickHouseClient, ...rest: infer R) => unknown ? R : never;

/** Projects and their API keys. */
export class AuthRepository {
  constructor(private readonly client: ClickHouseClient) {}

  createProject(...args: Args<typeof createProject>): ReturnType<typeof createProject> {
    return createProject(this.client, ...args);
  }

  updateProject(...args: Args<typeof updateProject>): ReturnType<typeof updateProject> {
    return updateProject(this.client, ...args);
  }

  listProjects(...args: Args<typeof listProjects>): ReturnType<typeof listProjects> {
    return listProjects(this.client, ...args);
  }

  getProject(...args: Args<typeof getProject>): ReturnType<typeof getProject> {
    return getProject(this.client, ...args);
  }

  insertApiKey(...args: Args<typeof insertApiKey>): ReturnType<typeof insertApiKey> {
    return insertApiKey(this.client, ...args);
  }

  listApiKeys(...args: Args<typeof listApiKeys>): ReturnType<typeof listApiKeys> {
    return listApiKeys(this.client, ...args);
  }

  revokeApiKey(...args: Args<typeof revokeApiKey>): ReturnType<typeof revokeApiKey> {
    return revokeApiKey(this.client, ...args);
  }

  listApiKeyRecords(...args: Args<typeof listApiKeyRecords>): ReturnType<typeof listApiKeyRecords> {
    return listApiKeyRecords(this.client, ...args);
  }
}
