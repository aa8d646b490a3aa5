import type { ClickHouseClient } from '@clickhouse/client';
import { msToDateTime64, nextVersionStamp } from '../versionStamp.js';
import { insertRows, num, optNum, optTime, selectRows, type Num } from './alertRows.js';

/**
 * Where notifications go. `secrets` are the Standard Webhooks signing
 * secrets (`whsec_…`), newest first; every one signs (rotation). They are
 * stored as they are: signing needs the secret itself.
 */
export interface StoredAlertDestination {
  projectId: string;
  destinationId: string;
  name: string;
  /** Payload format, owned by @telltale/alerts (e.g. `standard`, `slack`, `alertmanager`). */
  format: string;
  url: string;
  secrets: string[];
  /** Set when the receiver answered 410 Gone (or an operator disabled it): nothing is sent. */
  disabledAtMs: number | undefined;
  disabledReason: string;
  createdAtMs: number;
  updatedAtMs: number;
}

interface DestinationRow {
  project_id: string;
  destination_id: string;
  name: string;
  format: string;
  url: string;
  secrets: string[];
  disabled_ms: Num | null;
  disabled_reason: string;
  created_ms: Num;
  updated_ms: Num;
}

const SELECT = `SELECT project_id, destination_id, name, format, url, secrets,
       toUnixTimestamp64Milli(disabled_at) AS disabled_ms, disabled_reason,
       toUnixTimestamp64Milli(created_at) AS created_ms, toUnixTimestamp64Milli(updated_at) AS updated_ms
FROM alert_destinations FINAL`;

function fromRow(r: DestinationRow): StoredAlertDestination {
  return {
    projectId: r.project_id,
    destinationId: r.destination_id,
    name: r.name,
    format: r.format,
    url: r.url,
    secrets: r.secrets,
    disabledAtMs: optNum(r.disabled_ms),
    disabledReason: r.disabled_reason,
    createdAtMs: num(r.created_ms),
    updatedAtMs: num(r.updated_ms),
  };
}

/** Writes (creates or replaces) a destination. */
export async function putAlertDestination(client: ClickHouseClient, d: StoredAlertDestination): Promise<void> {
  await insertRows(client, 'alert_destinations', [
    {
      project_id: d.projectId,
      destination_id: d.destinationId,
      name: d.name,
      format: d.format,
      url: d.url,
      secrets: d.secrets,
      disabled_at: optTime(d.disabledAtMs),
      disabled_reason: d.disabledReason,
      created_at: msToDateTime64(d.createdAtMs),
      updated_at: msToDateTime64(d.updatedAtMs),
      version: nextVersionStamp(),
      is_deleted: 0,
    },
  ]);
}

export async function deleteAlertDestination(
  client: ClickHouseClient,
  projectId: string,
  destinationId: string,
): Promise<void> {
  const now = msToDateTime64(Date.now());
  await insertRows(client, 'alert_destinations', [
    {
      project_id: projectId,
      destination_id: destinationId,
      name: '',
      format: '',
      url: '',
      secrets: [],
      disabled_at: null,
      disabled_reason: '',
      created_at: now,
      updated_at: now,
      version: nextVersionStamp(),
      is_deleted: 1,
    },
  ]);
}

export async function listAlertDestinations(
  client: ClickHouseClient,
  projectId: string,
): Promise<StoredAlertDestination[]> {
  const rows = await selectRows<DestinationRow>(
    client,
    `${SELECT} WHERE is_deleted = 0 AND project_id = {projectId:String} ORDER BY destination_id`,
    { projectId },
  );
  return rows.map(fromRow);
}

export async function getAlertDestination(
  client: ClickHouseClient,
  projectId: string,
  destinationId: string,
): Promise<StoredAlertDestination | undefined> {
  const rows = await selectRows<DestinationRow>(
    client,
    `${SELECT} WHERE is_deleted = 0 AND project_id = {projectId:String} AND destination_id = {destinationId:String}`,
    { projectId, destinationId },
  );
  const row = rows[0];
  return row === undefined ? undefined : fromRow(row);
}
