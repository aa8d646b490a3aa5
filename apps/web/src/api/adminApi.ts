import { storedAdminKey } from './adminKey';
import type { ApiKey, CreatedKey, KeyInput, Project, ProjectInput, ProjectList } from '@telltale/api-contract';
import {
  createdKeySchema,
  keyResponseSchema,
  keysResponseSchema,
  projectResponseSchema,
  projectsResponseSchema,
} from '@telltale/api-contract';
import type { RequestOptions } from './getJson';
import { getJson, sendJson } from './getJson';
import { API_BASE } from './runsApi';

const ADMIN = `${API_BASE}/admin`;
const seg = encodeURIComponent;

export const adminUrls = {
  projects: () => `${ADMIN}/projects`,
  projectKeys: (projectId: string) => `${ADMIN}/projects/${seg(projectId)}/keys`,
  revokeKey: (keyId: string) => `${ADMIN}/keys/${seg(keyId)}/revoke`,
};

/** Admin routes take the admin key (never the read key): the stored one unless the caller gives another. */
function withAdminKey(options: RequestOptions = {}): RequestOptions {
  return 'readKey' in options ? options : { ...options, readKey: storedAdminKey() };
}

/** The projects, and whether the server is in open mode (`auth: 'none'`) or takes keys. */
export function fetchProjects(options?: RequestOptions): Promise<ProjectList> {
  return getJson(adminUrls.projects(), projectsResponseSchema, withAdminKey(options));
}

export async function createProject(input: ProjectInput, options?: RequestOptions): Promise<Project> {
  return (await sendJson('POST', adminUrls.projects(), input, projectResponseSchema, withAdminKey(options))).project;
}

export async function fetchProjectKeys(projectId: string, options?: RequestOptions): Promise<ApiKey[]> {
  return (await getJson(adminUrls.projectKeys(projectId), keysResponseSchema, withAdminKey(options))).keys;
}

/** Creates a key; the answer's `secret` is the whole key, which the server never shows again. */
export function createKey(projectId: string, input: KeyInput, options?: RequestOptions): Promise<CreatedKey> {
  return sendJson('POST', adminUrls.projectKeys(projectId), input, createdKeySchema, withAdminKey(options));
}

export async function revokeKey(keyId: string, options?: RequestOptions): Promise<ApiKey> {
  return (await sendJson('POST', adminUrls.revokeKey(keyId), undefined, keyResponseSchema, withAdminKey(options))).key;
}
