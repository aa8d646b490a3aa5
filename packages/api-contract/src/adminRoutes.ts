import {
  createdKeySchema,
  deletedRunResponseSchema,
  keyInputSchema,
  KeyParams,
  keyResponseSchema,
  keysResponseSchema,
  projectChangeSchema,
  projectInputSchema,
  ProjectParams,
  projectResponseSchema,
  ProjectRunParams,
  projectsResponseSchema,
} from './admin.js';
import { NoQuery } from './queryParams.js';
import type { RouteContract } from './RouteContract.js';

/** `/admin/…`: projects and their keys (the admin key, never a project's key). */
export const AdminRoutes = {
  'get /admin/projects': { method: 'get', path: '/admin/projects', query: NoQuery, response: projectsResponseSchema },
  'post /admin/projects': {
    method: 'post',
    path: '/admin/projects',
    query: NoQuery,
    body: projectInputSchema,
    response: projectResponseSchema,
  },
  'get /admin/projects/:projectId': {
    method: 'get',
    path: '/admin/projects/:projectId',
    query: NoQuery,
    params: ProjectParams,
    response: projectResponseSchema,
  },
  'put /admin/projects/:projectId': {
    method: 'put',
    path: '/admin/projects/:projectId',
    query: NoQuery,
    params: ProjectParams,
    body: projectChangeSchema,
    response: projectResponseSchema,
  },
  'get /admin/projects/:projectId/keys': {
    method: 'get',
    path: '/admin/projects/:projectId/keys',
    query: NoQuery,
    params: ProjectParams,
    response: keysResponseSchema,
  },
  'post /admin/projects/:projectId/keys': {
    method: 'post',
    path: '/admin/projects/:projectId/keys',
    query: NoQuery,
    params: ProjectParams,
    body: keyInputSchema,
    response: createdKeySchema,
  },
  'delete /admin/projects/:projectId/runs/:runId': {
    method: 'delete',
    path: '/admin/projects/:projectId/runs/:runId',
    query: NoQuery,
    params: ProjectRunParams,
    response: deletedRunResponseSchema,
  },
  'post /admin/keys/:keyId/revoke': {
    method: 'post',
    path: '/admin/keys/:keyId/revoke',
    query: NoQuery,
    params: KeyParams,
    response: keyResponseSchema,
  },
} as const satisfies Record<string, RouteContract>;
