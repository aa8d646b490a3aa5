import { Router, type Request } from 'express';
import { OPEN_MODE_PROJECT, TelltaleError, TelltaleErrorCode } from '@telltale/semconv';
import type { Store, StoreRows } from '@telltale/store';
import { generateApiKey } from '../auth/apiKey.js';
import type { AuthMode } from '../auth/resolveAuthMode.js';
import { API_ROUTES } from '@telltale/api-contract';
import type { ApiRegistry } from './ApiRegistry.js';
import { sendError } from './errors.js';

export interface AdminOptions {
  /** Throws a TelltaleError (401 / 403) unless the request may manage projects and keys. */
  authorize: (req: Request) => void;
  /** Runs after every change (the server reloads its key cache, so a new key works and a revoked one stops at once). */
  onChange?: () => Promise<unknown>;
  /** Spans whose content this server dropped for the project (content off) since it started. */
  contentDroppedOf?: (projectId: string) => number;
  /**
   * Resolves true once the project's spans acknowledged so far are stored,
   * false after a bound: a run delete waits for them, so spans accepted
   * before it cannot bring the run back.
   */
  storedUpToNow?: (projectId: string) => Promise<boolean>;
}

/** A project as the API answers it (`null`: no quota). */
export interface ProjectView {
  id: string;
  name: string;
  maxSpansPerSecond: number | null;
  createdAtMs: number;
  contentStored: boolean;
  contentReadable: boolean;
  contentDroppedSpans: number;
}

/** A key as the API answers it: never the secret nor its hash. `prefix` is how the key begins, to recognise it. */
export interface KeyView {
  keyId: string;
  projectId: string;
  kind: StoreRows.ApiKeyInfo['kind'];
  name: string;
  prefix: string;
  createdAtMs: number;
  revokedAtMs: number | null;
}

const projectViewOf =
  (droppedOf: ((projectId: string) => number) | undefined) =>
  (p: StoreRows.Project): ProjectView => ({
    id: p.id,
    name: p.name,
    maxSpansPerSecond: p.maxSpansPerSecond ?? null,
    createdAtMs: p.createdAtMs,
    contentStored: p.contentStored,
    contentReadable: p.contentReadable,
    contentDroppedSpans: droppedOf?.(p.id) ?? 0,
  });
const keyView = (k: StoreRows.ApiKeyInfo): KeyView => ({
  keyId: k.keyId,
  projectId: k.projectId,
  kind: k.kind,
  name: k.name,
  prefix: `tt_${k.kind}_${k.keyId}_`,
  createdAtMs: k.createdAtMs,
  revokedAtMs: k.revokedAtMs ?? null,
});

/**
 * `/admin/…`: projects and their API keys, managed over HTTP while the server
 * runs. Every route is behind `authorize` (the admin key with `--auth keys`),
 * never behind a project's read or ingest key. A key's secret is answered
 * once, by the create call; the store keeps only its SHA-256.
 */
export function adminRouter(registry: ApiRegistry, store: Store, opts: AdminOptions, auth: AuthMode): Router {
  const router = Router();
  const projectView = projectViewOf(opts.contentDroppedOf);
  const tag = 'admin';
  const security = 'admin' as const;
  router.use('/admin', (req, _res, next) => {
    opts.authorize(req);
    next();
  });
  const changed = async (): Promise<void> => {
    await opts.onChange?.();
  };

  registry.route(
    router,
    {
      ...API_ROUTES['get /admin/projects'],
      tag,
      security,
      summary: 'Every project, and how the server authenticates',
      returns: "{ projects: Project[], auth: 'none' | 'keys' }",
    },
    async () => ({
      projects: (await store.auth.listProjects()).map(projectView),
      auth,
    }),
  );
  registry.route(
    router,
    {
      ...API_ROUTES['post /admin/projects'],
      status: 201,
      tag,
      security,
      summary: 'Creates a project (409 when the id is taken)',
      returns: '{ project } (201)',
    },
    async ({ res, body }) => {
      const project = await store.auth.createProject({
        id: body.id,
        ...(body.name === undefined ? {} : { name: body.name }),
        ...(body.maxSpansPerSecond === undefined ? {} : { maxSpansPerSecond: body.maxSpansPerSecond }),
        ...(body.contentStored === undefined ? {} : { contentStored: body.contentStored }),
        ...(body.contentReadable === undefined ? {} : { contentReadable: body.contentReadable }),
      });
      await changed();
      res.status(201);
      return { project: projectView(project) };
    },
  );
  registry.route(
    router,
    { ...API_ROUTES['get /admin/projects/:projectId'], tag, security, summary: 'One project', returns: '{ project }' },
    async ({ params }) => ({ project: projectView(await existingProject(store, params.projectId)) }),
  );
  registry.route(
    router,
    {
      ...API_ROUTES['put /admin/projects/:projectId'],
      tag,
      security,
      summary: "Changes a project's name, ingest quota or content switches (the fields given)",
      returns: '{ project }',
    },
    async ({ params, body }) => {
      const project = await store.auth.updateProject(params.projectId, {
        ...(body.name === undefined ? {} : { name: body.name }),
        ...(body.maxSpansPerSecond === undefined ? {} : { maxSpansPerSecond: body.maxSpansPerSecond }),
        ...(body.contentStored === undefined ? {} : { contentStored: body.contentStored }),
        ...(body.contentReadable === undefined ? {} : { contentReadable: body.contentReadable }),
      });
      await changed();
      return { project: projectView(project) };
    },
  );
  registry.route(
    router,
    {
      ...API_ROUTES['get /admin/projects/:projectId/keys'],
      tag,
      security,
      summary: "A project's keys, revoked ones included (never their secrets)",
      returns: '{ keys: Key[] }',
    },
    async ({ params }) => {
      await existingProject(store, params.projectId);
      return { keys: (await store.auth.listApiKeys(params.projectId)).map(keyView) };
    },
  );
  registry.route(
    router,
    {
      ...API_ROUTES['post /admin/projects/:projectId/keys'],
      status: 201,
      tag,
      security,
      summary: 'Creates a key; answers the whole key (tt_<kind>_<id>_<secret>) once, as `secret`',
      returns: '{ key: Key, secret } (201)',
    },
    async ({ res, params, body }) => {
      const generated = generateApiKey(body.kind);
      const stored = await store.auth.insertApiKey({
        keyId: generated.keyId,
        projectId: params.projectId,
        kind: body.kind,
        secretSha256: generated.secretSha256,
        ...(body.name === undefined ? {} : { name: body.name }),
      });
      await changed();
      res.status(201);
      return { key: keyView(stored), secret: generated.key };
    },
  );
  registry.route(
    router,
    {
      ...API_ROUTES['delete /admin/projects/:projectId/runs/:runId'],
      tag,
      security,
      summary:
        'Deletes a run and everything kept about it: its content, spans, facts and trace links (404 when the project has no such run)',
      returns: '{ deleted: { runId, spans, contentSpans } }',
    },
    async ({ params }) => {
      const { projectId, runId } = params;
      // the open mode's project has no row: any other must exist
      if (projectId !== OPEN_MODE_PROJECT) await existingProject(store, projectId);
      if (opts.storedUpToNow !== undefined && !(await opts.storedUpToNow(projectId)))
        throw new TelltaleError({
          code: TelltaleErrorCode.UNAVAILABLE,
          message: `spans of project ${projectId} acknowledged before this delete are still being stored: retry once they are (nothing was deleted)`,
        });
      const deleted = await store.runs.delete(projectId, runId);
      if (deleted === undefined)
        throw new TelltaleError({
          code: TelltaleErrorCode.NOT_FOUND,
          message: `project ${projectId} has no run ${runId}`,
        });
      return { deleted };
    },
  );
  registry.route(
    router,
    {
      ...API_ROUTES['post /admin/keys/:keyId/revoke'],
      tag,
      security,
      summary: 'Revokes a key (revoking twice keeps the first time)',
      returns: '{ key: Key }',
    },
    async ({ params }) => {
      const revoked = await store.auth.revokeApiKey(params.keyId);
      await changed();
      return { key: keyView(revoked) };
    },
  );
  router.use('/admin', (req, res) =>
    sendError(
      res,
      new TelltaleError({ code: TelltaleErrorCode.NOT_FOUND, message: `no API route ${req.method} /admin${req.path}` }),
    ),
  );
  return router;
}

async function existingProject(store: Store, projectId: string): Promise<StoreRows.Project> {
  const project = await store.auth.getProject(projectId);
  if (project === undefined)
    throw new TelltaleError({ code: TelltaleErrorCode.NOT_FOUND, message: `no project ${projectId}` });
  return project;
}
