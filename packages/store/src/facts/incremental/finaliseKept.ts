import type { ClickHouseClient } from '@clickhouse/client';
import type { InsertTransport } from '../../insertTransport.js';
import { computeRunFacts } from './computeRunFacts.js';
import type { RunFactsState } from './RunFactsState.js';
import { writeFactRows } from './writeFactRows.js';

/**
 * Stored span rows per run id asked for: the chunk's runs, and their trace
 * ids (spans naming no run are stored under their trace id: rows there are
 * fragments the trace resolver would move). Reads the run_id column only.
 */
export const STORED_SQL = `SELECT run_id, count() AS spans
FROM spans
WHERE project_id = {projectId:String} AND run_id IN {runIds:Array(String)}
GROUP BY run_id`;

/** Stored span rows per run id asked for (STORED_SQL). */
export async function storedRowCounts(
  client: ClickHouseClient,
  projectId: string,
  runIds: readonly string[],
): Promise<Map<string, number>> {
  const result = await client.query({ query: STORED_SQL, query_params: { projectId, runIds }, format: 'JSONEachRow' });
  const stored = new Map<string, number>();
  for (const r of await result.json<{ run_id: string; spans: number | string }>())
    stored.set(r.run_id, Number(r.spans));
  return stored;
}

/**
 * Finalises, from the spans this process kept, the runs of a chunk whose
 * spans all name their run and whose traces hold no span naming none (so
 * the trace resolver has nothing to move), when storage holds exactly the
 * spans kept (as many rows as kept spans). Returns how many it wrote and
 * the runs left for the resolver and the SQL finaliser.
 */
export async function finaliseKept(
  client: ClickHouseClient,
  transport: InsertTransport,
  state: RunFactsState,
  projectId: string,
  chunk: readonly string[],
  onFallback: (err: unknown) => void = () => undefined,
): Promise<{ computed: number; rest: string[] }> {
  const rest: string[] = [];
  const candidates = new Map<string, ReadonlySet<string>>();
  for (const id of chunk) {
    const traces = state.tracesOfTagged(projectId, id);
    if (traces === undefined) rest.push(id);
    else candidates.set(id, traces);
  }
  if (candidates.size === 0) return { computed: 0, rest };
  const asked = new Set(candidates.keys());
  for (const traces of candidates.values()) for (const t of traces) asked.add(t);
  const stored = await storedRowCounts(client, projectId, [...asked]);
  const computed: Parameters<typeof writeFactRows>[3][number][] = [];
  for (const [id, traces] of candidates) {
    let fragments = false;
    for (const t of traces) if (stored.has(t)) fragments = true;
    const held = fragments ? undefined : state.spansOf(projectId, id, stored.get(id));
    if (held === undefined) {
      rest.push(id);
      continue;
    }
    try {
      computed.push({ rows: computeRunFacts(id, held.spans), ingestedMaxMs: held.ingestedMaxMs });
    } catch (err) {
      // a fault of this path is never a run without facts: the SQL finaliser takes it
      onFallback(err);
      rest.push(id);
    }
  }
  try {
    await writeFactRows(client, transport, projectId, computed);
  } catch (err) {
    // rows it could not write (the SQL's, written after, are newer); a storage that is down fails the SQL too
    onFallback(err);
    for (const c of computed) rest.push(c.rows.run.run_id);
    return { computed: 0, rest };
  }
  return { computed: computed.length, rest };
}
