import type { ClickHouseClient } from '@clickhouse/client';
import type { InsertTransport } from '../../insertTransport.js';
import { ingestedField, type FactRowLines } from './factRowLines.js';
import { storedRowCounts } from './finaliseKept.js';
import type { RequestRunFacts } from './requestFacts.js';
import { writeFactLines } from './writeFactRows.js';

/**
 * Writes the facts an ingest worker computed for runs its request held
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
  facts: readonly RequestRunFacts[],
): Promise<Set<string>> {
  const written = new Set<string>();
  if (facts.length === 0) return written;
  const asked = new Set<string>();
  for (const f of facts) {
    asked.add(f.runId);
    for (const t of f.traces) asked.add(t);
  }
  const stored = await storedRowCounts(client, projectId, [...asked]);
  const lines: FactRowLines = { steps: [], runSteps: [], runs: [] };
  for (const f of facts) {
    if (written.has(f.runId) || stored.get(f.runId) !== f.spans || f.traces.some((t) => stored.has(t))) continue;
    written.add(f.runId);
    lines.steps.push(...f.lines.steps);
    lines.runSteps.push(...f.lines.runSteps);
    lines.runs.push(...f.lines.runs);
  }
  const ingested = ingestedField(Date.now());
  await writeFactLines(
    client,
    transport,
    lines,
    lines.runs.map(() => ingested),
  );
  return written;
}
