import type { ClickHouseClient } from '@clickhouse/client';
import type { QueryRunner } from '../QueryRunner.js';
import { createProject, updateProject, listProjects, getProject } from '../projects/projects.js';
import { insertApiKey, listApiKeys, revokeApiKey, listApiKeyRecords } from './apiKeys.js';

/** The arguments of a store function after its first. */
type Args<F> = F extends (client: ClickHouseClient, ...rest: infer R) => unknown ? R : never;

/** Projects and their API keys. */
export class AuthRepository {
  constructor(private readonly runner: QueryRunner) {}

  createProject(...args: Args<typeof createProject>): ReturnType<typeof createProject> {
    return this.runner.run('auth.createProject', (client) => createProject(client, ...args));
  }

  updateProject(...args: Args<typeof updateProject>): ReturnType<typeof updateProject> {
    return this.runner.run('auth.updateProject', (client) => updateProject(client, ...args));
  }

  listProjects(...args: Args<typeof listProjects>): ReturnType<typeof listProjects> {
    return this.runner.run('auth.listProjects', (client) => listProjects(client, ...args));
  }

  getProject(...args: Args<typeof getProject>): ReturnType<typeof getProject> {
    return this.runner.run('auth.getProject', (client) => getProject(client, ...args));
  }

  insertApiKey(...args: Args<typeof insertApiKey>): ReturnType<typeof insertApiKey> {
    return this.runner.run('auth.insertApiKey', (client) => insertApiKey(client, ...args));
  }

  listApiKeys(...args: Args<typeof listApiKeys>): ReturnType<typeof listApiKeys> {
    return this.runner.run('auth.listApiKeys', (client) => listApiKeys(client, ...args));
  }

  revokeApiKey(...args: Args<typeof revokeApiKey>): ReturnType<typeof revokeApiKey> {
    return this.runner.run('auth.revokeApiKey', (client) => revokeApiKey(client, ...args));
  }

  listApiKeyRecords(...args: Args<typeof listApiKeyRecords>): ReturnType<typeof listApiKeyRecords> {
    return this.runner.run('auth.listApiKeyRecords', (client) => listApiKeyRecords(client, ...args));
  }
}
