import type { ClickHouseClient } from '@clickhouse/client';
import { API_KEY_KINDS, TelltaleError, TelltaleErrorCode, type ApiKeyKind } from '@telltale/semconv';
import { checkProjectId, getProject } from '../projects/projects.js';
import { msToDateTime64, nextVersionStamp } from '../versionStamp.js';

/** What may be shown about a key: never its secret, nor the secret's hash. */
export interface ApiKeyInfo {
  keyId: string;
  projectId: string;
  kind: ApiKeyKind;
  /** A label for people ("ci", "checkout agent"); may be empty. */
  name: string;
  createdAtMs: number;
  /** When it was revoked; undefined while the key works. */
  revokedAtMs: number | undefined;
}

/** A key as the server's authenticator needs it: with the SHA-256 (hex) of its secret. */
export interface ApiKeyRecord extends ApiKeyInfo {
  secretSha256: string;
}

export interface NewApiKey {
  keyId: string;
  projectId: string;
  kind: ApiKeyKind;
  name?: string;
  /** SHA-256 of the key's secret, 64 lowercase hex digits. The secret itself never reaches the store. */
  secretSha256: string;
}

const KEY_ID_PATTERN = /^[0-9A-Za-z]{8,64}$/;
const SHA256_HEX_PATTERN = /^[0-9a-f]{64}$/;

interface KeyRow {
  key_id: string;
  project_id: string;
  kind: ApiKeyKind;
  name: string;
  secret_sha256: string;
  created_ms: number | string;
  revoked_ms: number | string | null;
  version: number | string;
}

const badRequest = (message: string): TelltaleError =>
  new TelltaleError({ code: TelltaleErrorCode.BAD_REQUEST, message });

async function readKeys(
  client: ClickHouseClient,
  where: { keyId?: string; projectId?: string } = {},
): Promise<(ApiKeyRecord & { version: number })[]> {
  const conditions = [
    ...(where.keyId === undefined ? [] : ['key_id = {keyId:String}']),
    ...(where.projectId === undefined ? [] : ['project_id = {projectId:String}']),
  ];
  const result = await client.query({
    query: `SELECT key_id, project_id, kind, name, secret_sha256, toUnixTimestamp64Milli(created_at) AS created_ms,
                   toUnixTimestamp64Milli(revoked_at) AS revoked_ms, version
            FROM api_keys FINAL
            ${conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`}
            ORDER BY created_at, key_id`,
    format: 'JSONEachRow',
    query_params: {
      ...(where.keyId === undefined ? {} : { keyId: where.keyId }),
      ...(where.projectId === undefined ? {} : { projectId: where.projectId }),
    },
  });
  const rows = await result.json<KeyRow>();
  return rows.map((r) => ({
    keyId: r.key_id,
    projectId: r.project_id,
    kind: r.kind,
    name: r.name,
    secretSha256: r.secret_sha256,
    createdAtMs: Number(r.created_ms),
    revokedAtMs: r.revoked_ms === null ? undefined : Number(r.revoked_ms),
    version: Number(r.version),
  }));
}

function info(record: ApiKeyRecord): ApiKeyInfo {
  return {
    keyId: record.keyId,
    projectId: record.projectId,
    kind: record.kind,
    name: record.name,
    createdAtMs: record.createdAtMs,
    revokedAtMs: record.revokedAtMs,
  };
}

async function writeKey(client: ClickHouseClient, key: ApiKeyRecord, version: number): Promise<void> {
  await client.insert({
    table: 'api_keys',
    format: 'JSONEachRow',
    values: [
      {
        key_id: key.keyId,
        project_id: key.projectId,
        kind: key.kind,
        name: key.name,
        secret_sha256: key.secretSha256,
        created_at: msToDateTime64(key.createdAtMs),
        revoked_at: key.revokedAtMs === undefined ? null : msToDateTime64(key.revokedAtMs),
        version,
      },
    ],
  });
}

/** Stores a new key of an existing project (NOT_FOUND otherwise); CONFLICT when the key id is taken. */
export async function insertApiKey(client: ClickHouseClient, key: NewApiKey): Promise<ApiKeyInfo> {
  checkProjectId(key.projectId);
  if (!KEY_ID_PATTERN.test(key.keyId)) throw badRequest('a key id is 8–64 letters and digits');
  if (!SHA256_HEX_PATTERN.test(key.secretSha256)) throw badRequest('secretSha256 must be 64 lowercase hex digits');
  if (!(API_KEY_KINDS as readonly string[]).includes(key.kind))
    throw badRequest(`a key kind is one of ${API_KEY_KINDS.join(', ')}`);
  const name = key.name ?? '';
  if (name.length > 256) throw badRequest('a key name is at most 256 characters');
  if ((await getProject(client, key.projectId)) === undefined) {
    throw new TelltaleError({ code: TelltaleErrorCode.NOT_FOUND, message: `no project ${key.projectId}` });
  }
  if ((await readKeys(client, { keyId: key.keyId })).length > 0)
    throw new TelltaleError({ code: TelltaleErrorCode.CONFLICT, message: `key ${key.keyId} exists already` });
  const record: ApiKeyRecord = { ...key, name, createdAtMs: Date.now(), revokedAtMs: undefined };
  await writeKey(client, record, nextVersionStamp());
  return info(record);
}

/** A project's keys, oldest first, revoked ones included. */
export async function listApiKeys(client: ClickHouseClient, projectId: string): Promise<ApiKeyInfo[]> {
  return (await readKeys(client, { projectId })).map(info);
}

/**
 * Revokes a key (NOT_FOUND when there is none). Revoking twice keeps the
 * first revocation time. Servers stop accepting it at their next key refresh.
 */
export async function revokeApiKey(client: ClickHouseClient, keyId: string): Promise<ApiKeyInfo> {
  const current = (await readKeys(client, { keyId }))[0];
  if (current === undefined) throw new TelltaleError({ code: TelltaleErrorCode.NOT_FOUND, message: `no key ${keyId}` });
  if (current.revokedAtMs !== undefined) return info(current);
  const revoked: ApiKeyRecord = { ...current, revokedAtMs: Date.now() };
  await writeKey(client, revoked, nextVersionStamp(current.version + 1));
  return info(revoked);
}

/** Every key with its secret's hash: what a server loads to authenticate requests without asking the store each time. */
export async function listApiKeyRecords(client: ClickHouseClient): Promise<ApiKeyRecord[]> {
  return (await readKeys(client)).map(({ version: _, ...record }) => record);
}
