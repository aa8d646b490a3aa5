import { Router, type Request } from 'express';
import { API_KEY_KINDS, PROJECT_ID_PATTERN, TelltaleError, TelltaleErrorCode } from '@telltale/semconv';
import { createProject, getProject, insertApiKey, listApiKeys, listProjects, MAX_SPANS_PER_SECOND_LIMIT, revokeApiKey, updateProject, type ApiKeyInfo, type Project, type Store } from '@telltale/store';
import { z } from 'zod';
import { generateApiKey } from '../auth/apiKey.js';
import type { ApiRegistry } from './ApiRegistry.js';
import { sendError } from './errors.js';

export interface AdminOptions {
  /** Throws a TelltaleError (401 / 403) unless the request may manage projects and keys. */
  authorize: (req: Request) => void;
  /** Runs after every change (the server reloads its key cache, so a new key works and a revoked one stops at once). */
  onChange?: () => Promise<unknown>;
}

const NoQuery = z.object({}).strict();
const ProjectId = z.string().regex(PROJECT_ID_PATTERN, 'a project id is 1–64 lowercase letters, digits and hyphens, starting with a letter or digit');
const Quota = z.number().int().min(1).max(MAX_SPANS_PER_SECOND_LIMIT);
const Name = z.string().min(1).max(256);
const ProjectParams = z.object({ projectId: ProjectId.describe('project id') }).strict();
const KeyParams = z.object({ keyId: z.string().regex(/^[0-9A-Za-z]{8,64}$/, 'a key id is 8–64 letters and digits').describe('key id (the part after tt_<kind>_)') }).strict();
const ProjectBody = z
  .object({ id: ProjectId, name: Name.optional().describe('display name (default: the id)'), maxSpansPerSecond: Quota.optional().describe('ingest quota in spans per second (default: none)') })
  .strict();
const ProjectChange = z
  .object({ name: Name.optional(), maxSpansPerSecond: Quota.nullable().optional().describe('a new ingest quota; null removes it') })
  .strict();
const KeyBody = z.object({ kind: z.enum(API_KEY_KINDS).describe('ingest: sends OTLP; read: calls the API'), name: z.string().max(256).optional().describe('a label, e.g. ci') }).strict();

/** A project as the API answers it (`null`: no quota). */
export interface ProjectView {
  id: string;
  name: string;
  maxSpansPerSecond: number | null;
  createdAtMs: number;
}

/** A key as the API answers it: never the secret nor its hash. `prefix` is how the key begins, to recognise it. */
export interface KeyView {
  keyId: string;
  projectId: string;
  kind: ApiKeyInfo['kind'];
  name: string;
  prefix: string;
  createdAtMs: number;
  revokedAtMs: number | null;
}

const projectView = (p: Project): ProjectView => ({ id: p.id, name: p.name, maxSpansPerSecond: p.maxSpansPerSecond ?? null, createdAtMs: p.createdAtMs });
const keyView = (k: ApiKeyInfo): KeyView => ({
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
export function adminRouter(registry: ApiRegistry, store: Store, opts: AdminOptions): Router {
  const router = Router();
  const tag = 'admin';
  const security = 'admin' as const;
  router.use('/admin', (req, _res, next) => {
    opts.authorize(req);
    next();
  });
  const changed = async (): Promise<void> => {
    await opts.onChange?.();
  };

  registry.route(router, { method: 'get', path: '/admin/projects', tag, security, summary: 'Every project', query: NoQuery, response: '{ projects: Project[] }' }, async () => ({
    projects: (await listProjects(store.client)).map(projectView),
  }));
  registry.route(
    router,
    { method: 'post', path: '/admin/projects', tag, security, summary: 'Creates a project (409 when the id is taken)', query: NoQuery, body: ProjectBody, response: '{ project } (201)' },
    async ({ res, body }) => {
      const project = await createProject(store.client, {
        id: body.id,
        ...(body.name === undefined ? {} : { name: body.name }),
        ...(body.maxSpansPerSecond === undefined ? {} : { maxSpansPerSecond: body.maxSpansPerSecond }),
      });
      await changed();
      res.status(201);
      return { project: projectView(project) };
    },
  );
  registry.route(
    router,
    { method: 'get', path: '/admin/projects/:projectId', tag, security, summary: 'One project', query: NoQuery, params: ProjectParams, response: '{ project }' },
    async ({ params }) => ({ project: projectView(await existingProject(store, params.projectId)) }),
  );
  registry.route(
    router,
    {
      method: 'put',
      path: '/admin/projects/:projectId',
      tag,
      security,
      summary: "Changes a project's name or ingest quota (the fields given)",
      query: NoQuery,
      params: ProjectParams,
      body: ProjectChange,
      response: '{ project }',
    },
    async ({ params, body }) => {
      const project = await updateProject(store.client, params.projectId, {
        ...(body.name === undefined ? {} : { name: body.name }),
        ...(body.maxSpansPerSecond === undefined ? {} : { maxSpansPerSecond: body.maxSpansPerSecond }),
      });
      await changed();
      return { project: projectView(project) };
    },
  );
  registry.route(
    router,
    { method: 'get', path: '/admin/projects/:projectId/keys', tag, security, summary: "A project's keys, revoked ones included (never their secrets)", query: NoQuery, params: ProjectParams, response: '{ keys: Key[] }' },
    async ({ params }) => {
      await existingProject(store, params.projectId);
      return { keys: (await listApiKeys(store.client, params.projectId)).map(keyView) };
    },
  );
  registry.route(
    router,
    {
      method: 'post',
      path: '/admin/projects/:projectId/keys',
      tag,
      security,
      summary: 'Creates a key; answers the whole key (tt_<kind>_<id>_<secret>) once, as `secret`',
      query: NoQuery,
      params: ProjectParams,
      body: KeyBody,
      response: '{ key: Key, secret } (201)',
    },
    async ({ res, params, body }) => {
      const generated = generateApiKey(body.kind);
      const stored = await insertApiKey(store.client, {
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
    { method: 'post', path: '/admin/keys/:keyId/revoke', tag, security, summary: 'Revokes a key (revoking twice keeps the first time)', query: NoQuery, params: KeyParams, response: '{ key: Key }' },
    async ({ params }) => {
      const revoked = await revokeApiKey(store.client, params.keyId);
      await changed();
      return { key: keyView(revoked) };
    },
  );
  router.use('/admin', (req, res) => sendError(res, new TelltaleError({ code: TelltaleErrorCode.NOT_FOUND, message: `no API route ${req.method} /admin${req.path}` })));
  return router;
}

async function existingProject(store: Store, projectId: string): Promise<Project> {
  const project = await getProject(store.client, projectId);
  if (project === undefined) throw new TelltaleError({ code: TelltaleErrorCode.NOT_FOUND, message: `no project ${projectId}` });
  return project;
}
