import type { ClickHouseClient } from '@clickhouse/client';
import type { InsertTransport } from '../../insertTransport.js';
import type { RunRows } from './factRowBytes.js';
import { storedRowCounts } from './finaliseKept.js';
import type { RequestFactRows } from './requestFacts.js';
import { writeChosenRows, type ChosenFactRows } from './writeFactRows.js';

/**
 * Writes the facts ingest workers computed for runs their requests held
 * whole (computeRequestFacts), after their spans were stored, for the runs
 * of which storage holds exactly the spans they were computed from: as
 * many rows, and none under their traces (fragments naming no run). A run
 * with spans from another request fails that check. Returns the runs
 * written; their ingest time is now, after their spans' insert.
 */
export async function writeRequestFacts(
  client: ClickHouseClient,
  transport: InsertTransport,
  projectId: string,
  requests: readonly RequestFactRows[],
): Promise<Set<string>> {
  const written = new Set<string>();
  const asked = new Set<string>();
  for (const r of requests)
    for (const f of r.runs) {
      asked.add(f.runId);
      for (const t of f.traces) asked.add(t);
    }
  if (asked.size === 0) return written;
  const stored = await storedRowCounts(client, projectId, [...asked]);
  const chosen: ChosenFactRows[] = [];
  for (const r of requests) {
    const runs: RunRows[] = [];
    for (const f of r.runs) {
      if (written.has(f.runId) || stored.get(f.runId) !== f.spans || f.traces.some((t) => stored.has(t))) continue;
      written.add(f.runId);
      runs.push(f.rows);
    }
    if (runs.length > 0) chosen.push({ rows: r.rows, runs });
  }
  if (chosen.length > 0) await writeChosenRows(client, transport, chosen, Date.now());
  return written;
}
