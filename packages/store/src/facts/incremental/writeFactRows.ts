import type { ClickHouseClient } from '@clickhouse/client';
import { nanosToDateTime64 } from '../../time.js';
import type { RunFactRows } from './computeRunFacts.js';

/** The newest version so far: rows of one process keep their order even within a nanosecond. */
let lastVersion = 0n;
function nextVersion(): bigint {
  const now = BigInt(Date.now()) * 1_000_000n;
  lastVersion = now > lastVersion ? now : lastVersion + 1n;
  return lastVersion;
}

/** JSON as JSONEachRow reads it: 64-bit integers quoted, NaN as "nan". */
function line(row: Record<string, unknown>): string {
  return JSON.stringify(row, (_key, v: unknown) =>
    typeof v === 'bigint' ? v.toString() : typeof v === 'number' && Number.isNaN(v) ? 'nan' : v,
  );
}

const time = (ns: bigint): string => nanosToDateTime64(ns);

/**
 * Inserts computed facts like the SQL finaliser does: step facts and run
 * steps first, run facts last (the commit mark a catch-up checks), each a
 * new version of its rows. `ingestedMax` (epoch ms) per run: not before the
 * ingest time of any of its spans.
 */
export async function writeFactRows(
  client: ClickHouseClient,
  projectId: string,
  facts: ReadonlyArray<{ rows: RunFactRows; ingestedMaxMs: number }>,
): Promise<void> {
  if (facts.length === 0) return;
  const version = nextVersion();
  const steps: string[] = [];
  const runSteps: string[] = [];
  const runs: string[] = [];
  for (const { rows, ingestedMaxMs } of facts) {
    for (const s of rows.steps)
      steps.push(line({ ...s, project_id: projectId, run_start: time(s.run_start), version }));
    if (rows.runSteps !== undefined)
      runSteps.push(
        line({ ...rows.runSteps, project_id: projectId, run_start: time(rows.runSteps.run_start), version }),
      );
    const r = rows.run;
    runs.push(
      line({
        ...r,
        project_id: projectId,
        run_start: time(r.run_start),
        run_end: time(r.run_end),
        // named tuples are objects in JSON
        self_times: r.self_times.map(([kind, step, self_ns]) => ({ kind, step, self_ns })),
        loop_dets: r.loop_dets.map(([code, key1, key2, count, anchor_ns, anchor_key, wasted]) => ({
          code,
          key1,
          key2,
          count,
          anchor_ns,
          anchor_key,
          wasted: wasted.map(([start_ns, span_key, duration_ns, cost]) => ({ start_ns, span_key, duration_ns, cost })),
        })),
        ingested_max: (ingestedMaxMs / 1000).toFixed(3),
        version,
      }),
    );
  }
  const insert = (table: string, values: string[]): Promise<unknown> =>
    values.length === 0
      ? Promise.resolve()
      : client.command({ query: `INSERT INTO ${table} FORMAT JSONEachRow\n${values.join('\n')}` });
  await insert('run_step_facts', steps);
  await insert('run_steps', runSteps);
  await insert('run_facts', runs);
}
