import type { ClickHouseClient } from '@clickhouse/client';

/** A live alert event as stored (migration 0009): the event itself stays opaque JSON to the store. */
export interface StoredLiveAlertEvent {
  eventId: string;
  projectId: string;
  /** When it was written (storage clock, epoch ms, microseconds as a fraction). */
  writtenAtMs: number;
  payload: string;
}

export async function insertLiveAlertEvents(
  client: ClickHouseClient,
  events: readonly { eventId: string; projectId: string; payload: string }[],
): Promise<void> {
  if (events.length === 0) return;
  await client.insert({
    table: 'live_alert_events',
    format: 'JSONEachRow',
    values: events.map((e) => ({ event_id: e.eventId, project_id: e.projectId, payload: e.payload })),
    clickhouse_settings: { async_insert: 0 },
  });
}

/** The events written in the last `windowMs` (storage clock), oldest first. */
export async function recentLiveAlertEvents(
  client: ClickHouseClient,
  windowMs: number,
): Promise<StoredLiveAlertEvent[]> {
  const result = await client.query({
    query: `SELECT event_id, project_id, toUnixTimestamp64Micro(written_at) AS at, payload
      FROM live_alert_events
      WHERE written_at > now64(6) - toIntervalMillisecond({window:Int64})
      ORDER BY written_at, event_id`,
    query_params: { window: windowMs },
    format: 'JSONEachRow',
  });
  const rows = await result.json<{ event_id: string; project_id: string; at: number | string; payload: string }>();
  return rows.map((r) => ({
    eventId: r.event_id,
    projectId: r.project_id,
    writtenAtMs: Number(r.at) / 1000,
    payload: r.payload,
  }));
}
