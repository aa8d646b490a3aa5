import { Option, type Command } from 'commander';
import { API_KEY_KINDS, OPEN_MODE_PROJECT, TelltaleError, TelltaleErrorCode, type ApiKeyKind } from '@telltale/semconv';
import type { StoreRows } from '@telltale/store';
import { deletedRunResponseSchema } from '@telltale/api-contract';
import { z } from 'zod';
import { generateApiKey } from '../auth/apiKey.js';
import { ApiClient, ApiResponseError } from './ApiClient.js';
import { CliError } from './CliError.js';
import { addStoreOptions, withStore, type StoreOptions } from './storeOptions.js';

/** What `projects` and `keys` do, the same whether through a running server's admin API or the store directly. */
export interface AdminBackend {
  listProjects(): Promise<StoreRows.Project[]>;
  createProject(input: { id: string; name?: string; maxSpansPerSecond?: number }): Promise<StoreRows.Project>;
  updateProject(id: string, change: { name?: string; maxSpansPerSecond?: number | null }): Promise<StoreRows.Project>;
  listKeys(projectId: string): Promise<StoreRows.ApiKeyInfo[]>;
  /** The new key's info and the whole key (shown once). */
  createKey(input: {
    projectId: string;
    kind: ApiKeyKind;
    name?: string;
  }): Promise<{ info: StoreRows.ApiKeyInfo; key: string }>;
  revokeKey(keyId: string): Promise<StoreRows.ApiKeyInfo>;
  /** Deletes a run with its content, spans and facts; NOT_FOUND when the project has no such run. */
  deleteRun(projectId: string, runId: string): Promise<StoreRows.DeletedRun>;
}

/** `--endpoint` picks the server's admin API; without it the store is opened directly (a stopped server, a shared ClickHouse). */
export interface AdminOptions extends StoreOptions {
  endpoint?: string;
  adminKey?: string;
}

export function addAdminOptions(command: Command): Command {
  return addStoreOptions(command)
    .option(
      '--endpoint <url>',
      'a running server to manage through its admin API (then --data-dir and --clickhouse-* are not used)',
    )
    .addOption(
      new Option('--admin-key <key>', 'the admin key that server was started with (with --endpoint)').env(
        'TELLTALE_ADMIN_KEY',
      ),
    );
}

/** The backend the options ask for. `--admin-key` typed without `--endpoint` is a usage error (the store ignores it). */
export function adminBackend(opts: AdminOptions, command?: Command): AdminBackend {
  if (opts.endpoint !== undefined) return httpBackend(opts.endpoint, opts.adminKey);
  if (opts.adminKey !== undefined && command?.getOptionValueSource('adminKey') === 'cli') {
    throw new CliError(
      '--admin-key is for a running server: add --endpoint <url> (without it the data directory or ClickHouse is opened directly)',
    );
  }
  return storeBackend(opts);
}

function storeBackend(opts: StoreOptions): AdminBackend {
  return {
    listProjects: async () => {
      return withStore(opts, (s) => s.auth.listProjects());
    },
    createProject: async (input) => {
      return withStore(opts, (s) => s.auth.createProject(input));
    },
    updateProject: async (id, change) => {
      return withStore(opts, (s) => s.auth.updateProject(id, change));
    },
    listKeys: async (projectId) => {
      return withStore(opts, async (s) => {
        if ((await s.auth.getProject(projectId)) === undefined)
          throw new TelltaleError({ code: TelltaleErrorCode.NOT_FOUND, message: `no project ${projectId}` });
        return s.auth.listApiKeys(projectId);
      });
    },
    createKey: async (input) => {
      const key = generateApiKey(input.kind);
      const info = await withStore(opts, (s) =>
        s.auth.insertApiKey({
          keyId: key.keyId,
          projectId: input.projectId,
          kind: input.kind,
          secretSha256: key.secretSha256,
          ...(input.name === undefined ? {} : { name: input.name }),
        }),
      );
      return { info, key: key.key };
    },
    revokeKey: async (keyId) => {
      return withStore(opts, (s) => s.auth.revokeApiKey(keyId));
    },
    deleteRun: async (projectId, runId) =>
      withStore(
        opts,
        async (s) => {
          const deleted = await s.runs.delete(projectId, runId);
          if (deleted !== undefined) return deleted;
          // the open mode's project has no row: any other must exist
          if (projectId !== OPEN_MODE_PROJECT && (await s.auth.getProject(projectId)) === undefined)
            throw new TelltaleError({ code: TelltaleErrorCode.NOT_FOUND, message: `no project ${projectId}` });
          throw new TelltaleError({
            code: TelltaleErrorCode.NOT_FOUND,
            message: `project ${projectId} has no run ${runId}`,
          });
        },
        { existing: true },
      ),
  };
}

const ProjectView = z.object({
  id: z.string(),
  name: z.string(),
  maxSpansPerSecond: z.number().nullable(),
  createdAtMs: z.number(),
  // servers before content switches answer without them: their defaults
  contentStored: z.boolean().default(true),
  contentReadable: z.boolean().default(false),
});
const KeyView = z.object({
  keyId: z.string(),
  projectId: z.string(),
  kind: z.enum(API_KEY_KINDS),
  name: z.string(),
  createdAtMs: z.number(),
  revokedAtMs: z.number().nullable(),
});
const toProject = (p: z.infer<typeof ProjectView>): StoreRows.Project => ({
  id: p.id,
  name: p.name,
  maxSpansPerSecond: p.maxSpansPerSecond ?? undefined,
  createdAtMs: p.createdAtMs,
  contentStored: p.contentStored,
  contentReadable: p.contentReadable,
});
const toKey = (k: z.infer<typeof KeyView>): StoreRows.ApiKeyInfo => ({
  keyId: k.keyId,
  projectId: k.projectId,
  kind: k.kind,
  name: k.name,
  createdAtMs: k.createdAtMs,
  revokedAtMs: k.revokedAtMs ?? undefined,
});

function httpBackend(endpoint: string, adminKey: string | undefined): AdminBackend {
  const client = new ApiClient(
    endpoint,
    adminKey,
    30_000,
    'pass the admin key the server was started with: --admin-key or TELLTALE_ADMIN_KEY',
  );
  const seg = encodeURIComponent;
  /** Parses an answer; a 404 / 409 the server explains ("no project x", "exists already") is told like the store tells it. */
  const call = async <S extends z.ZodType>(schema: S, request: () => Promise<unknown>): Promise<z.output<S>> => {
    let body: unknown;
    try {
      body = await request();
    } catch (err) {
      if (
        err instanceof ApiResponseError &&
        (err.code === TelltaleErrorCode.NOT_FOUND || err.code === TelltaleErrorCode.CONFLICT) &&
        err.serverMessage !== undefined
      ) {
        throw new TelltaleError({ code: err.code, message: err.serverMessage });
      }
      throw err;
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success)
      throw new CliError(
        `${client.base} answered something unexpected: ${parsed.error.issues[0]?.message ?? 'invalid body'} (is it a Telltale server of this version?)`,
        undefined,
        TelltaleErrorCode.INCOMPATIBLE_SERVER,
      );
    return parsed.data;
  };
  return {
    listProjects: async () =>
      (await call(z.object({ projects: z.array(ProjectView) }), () => client.get('/admin/projects'))).projects.map(
        toProject,
      ),
    createProject: async (input) =>
      toProject(
        (await call(z.object({ project: ProjectView }), () => client.send('POST', '/admin/projects', input))).project,
      ),
    updateProject: async (id, change) =>
      toProject(
        (await call(z.object({ project: ProjectView }), () => client.send('PUT', `/admin/projects/${seg(id)}`, change)))
          .project,
      ),
    listKeys: async (projectId) =>
      (
        await call(z.object({ keys: z.array(KeyView) }), () => client.get(`/admin/projects/${seg(projectId)}/keys`))
      ).keys.map(toKey),
    createKey: async (input) => {
      const body = { kind: input.kind, ...(input.name === undefined ? {} : { name: input.name }) };
      const created = await call(z.object({ key: KeyView, secret: z.string() }), () =>
        client.send('POST', `/admin/projects/${seg(input.projectId)}/keys`, body),
      );
      return { info: toKey(created.key), key: created.secret };
    },
    revokeKey: async (keyId) =>
      toKey(
        (await call(z.object({ key: KeyView }), () => client.send('POST', `/admin/keys/${seg(keyId)}/revoke`))).key,
      ),
    deleteRun: async (projectId, runId) =>
      (
        await call(deletedRunResponseSchema, () =>
          client.send('DELETE', `/admin/projects/${seg(projectId)}/runs/${seg(runId)}`),
        )
      ).deleted,
  };
}
