import type { ClickHouseClient } from '@clickhouse/client';
import { msToDateTime64 } from '../versionStamp.js';

/** Numbers come back from JSONEachRow as numbers or (64-bit) strings. */
export type Num = number | string;

export const num = (v: Num): number => Number(v);
export const optNum = (v: Num | null): number | undefined => (v === null ? undefined : Number(v));
export const optTime = (ms: number | undefined): string | null => (ms === undefined ? null : msToDateTime64(ms));

/** Inserts rows into one of the alert tables (JSON strings escape newlines, so no blank line can end the body early). */
export async function insertRows(
  client: ClickHouseClient,
  table: string,
  rows: readonly Record<string, unknown>[],
): Promise<void> {
  if (rows.length === 0) return;
  await client.insert({ table, format: 'JSONEachRow', values: rows as Record<string, unknown>[] });
}

/** Runs a parameterised SELECT and returns its rows. */
export async function selectRows<T>(
  client: ClickHouseClient,
  query: string,
  params: Record<string, unknown>,
): Promise<T[]> {
  const result = await client.query({ query, format: 'JSONEachRow', query_params: params });
  return result.json<T>();
}
