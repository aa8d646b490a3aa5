import type { ClickHouseClient } from '@clickhouse/client';
import { MAX_SPANS_PER_SECOND_LIMIT, PROJECT_ID_PATTERN, TelltaleError, TelltaleErrorCode } from '@telltale/semconv';
import { msToDateTime64, nextVersionStamp } from '../versionStamp.js';

export interface Project {
  id: string;
  name: string;
  /** Ingest quota in spans per second; undefined: no quota. */
  maxSpansPerSecond: number | undefined;
  createdAtMs: number;
  /** false: the collector drops the content of this project's spans at ingest (and counts it). */
  contentStored: boolean;
  /** true: read keys may read this project's content (admins always may). */
  contentReadable: boolean;
}

export interface NewProject {
  id: string;
  name?: string;
  maxSpansPerSecond?: number;
  contentStored?: boolean;
  contentReadable?: boolean;
}

interface ProjectRow {
  project_id: string;
  name: string;
  max_spans_per_second: number | string | null;
  created_ms: number | string;
  version: number | string;
  content_stored: boolean | number;
  content_readable: boolean | number;
}

export function checkProjectId(id: string): void {
  if (!PROJECT_ID_PATTERN.test(id)) {
    throw new TelltaleError({
      code: TelltaleErrorCode.BAD_REQUEST,
      message: `invalid project id ${JSON.stringify(id)}: use 1–64 lowercase letters, digits and hyphens, starting with a letter or digit`,
    });
  }
}

function checkQuota(quota: number | undefined): void {
  if (quota === undefined) return;
  if (!Number.isInteger(quota) || quota < 1 || quota > MAX_SPANS_PER_SECOND_LIMIT) {
    throw new TelltaleError({
      code: TelltaleErrorCode.BAD_REQUEST,
      message: `max spans per second must be a whole number from 1 to ${MAX_SPANS_PER_SECOND_LIMIT}, got ${quota}`,
    });
  }
}

function checkName(name: string): void {
  if (name.length > 256)
    throw new TelltaleError({
      code: TelltaleErrorCode.BAD_REQUEST,
      message: 'a project name is at most 256 characters',
    });
}

async function writeProject(client: ClickHouseClient, project: Project, version: number): Promise<void> {
  await client.insert({
    table: 'projects',
    format: 'JSONEachRow',
    values: [
      {
        project_id: project.id,
        name: project.name,
        max_spans_per_second: project.maxSpansPerSecond ?? null,
        created_at: msToDateTime64(project.createdAtMs),
        version,
        content_stored: project.contentStored,
        content_readable: project.contentReadable,
      },
    ],
  });
}

async function readProjects(client: ClickHouseClient, projectId?: string): Promise<(Project & { version: number })[]> {
  const result = await client.query({
    query: `SELECT project_id, name, max_spans_per_second, toUnixTimestamp64Milli(created_at) AS created_ms, version,
                   content_stored, content_readable
            FROM projects FINAL
            ${projectId === undefined ? '' : 'WHERE project_id = {projectId:String}'}
            ORDER BY project_id`,
    format: 'JSONEachRow',
    ...(projectId === undefined ? {} : { query_params: { projectId } }),
  });
  const rows = await result.json<ProjectRow>();
  return rows.map((r) => ({
    id: r.project_id,
    name: r.name,
    maxSpansPerSecond: r.max_spans_per_second === null ? undefined : Number(r.max_spans_per_second),
    createdAtMs: Number(r.created_ms),
    version: Number(r.version),
    contentStored: r.content_stored === true || r.content_stored === 1,
    contentReadable: r.content_readable === true || r.content_readable === 1,
  }));
}

/** Every project, by id. */
export async function listProjects(client: ClickHouseClient): Promise<Project[]> {
  return (await readProjects(client)).map(({ version: _, ...p }) => p);
}

/** One project, or undefined. */
export async function getProject(client: ClickHouseClient, projectId: string): Promise<Project | undefined> {
  const found = (await readProjects(client, projectId))[0];
  if (found === undefined) return undefined;
  const { version: _, ...project } = found;
  return project;
}

/** Creates a project; CONFLICT when the id is taken. */
export async function createProject(client: ClickHouseClient, input: NewProject): Promise<Project> {
  checkProjectId(input.id);
  checkQuota(input.maxSpansPerSecond);
  const name = input.name ?? input.id;
  checkName(name);
  if ((await readProjects(client, input.id)).length > 0) {
    throw new TelltaleError({ code: TelltaleErrorCode.CONFLICT, message: `project ${input.id} exists already` });
  }
  const project: Project = {
    id: input.id,
    name,
    maxSpansPerSecond: input.maxSpansPerSecond,
    createdAtMs: Date.now(),
    contentStored: input.contentStored ?? true,
    contentReadable: input.contentReadable ?? false,
  };
  await writeProject(client, project, nextVersionStamp());
  return project;
}

/** Changes a project's name or quota (`maxSpansPerSecond: null` removes the quota); NOT_FOUND when there is no such project. */
export async function updateProject(
  client: ClickHouseClient,
  projectId: string,
  change: { name?: string; maxSpansPerSecond?: number | null; contentStored?: boolean; contentReadable?: boolean },
): Promise<Project> {
  const current = (await readProjects(client, projectId))[0];
  if (current === undefined)
    throw new TelltaleError({ code: TelltaleErrorCode.NOT_FOUND, message: `no project ${projectId}` });
  const quota = change.maxSpansPerSecond === null ? undefined : (change.maxSpansPerSecond ?? current.maxSpansPerSecond);
  checkQuota(quota);
  const name = change.name ?? current.name;
  checkName(name);
  const project: Project = {
    id: current.id,
    name,
    maxSpansPerSecond: quota,
    createdAtMs: current.createdAtMs,
    contentStored: change.contentStored ?? current.contentStored,
    contentReadable: change.contentReadable ?? current.contentReadable,
  };
  await writeProject(client, project, nextVersionStamp(current.version + 1));
  return project;
}
