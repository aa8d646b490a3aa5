import type { ClickHouseClient } from '@clickhouse/client';
import { nanosToDateTime64 } from '../../time.js';
import type { RunFactRows } from './computeRunFacts.js';

/**
 * The newest version so far: nanoseconds now (as the SQL finaliser's
 * `now64(9)`, to a fraction of a microsecond, so a later refinalisation by
 * either path wins), and increasing within a process.
 */
let lastVersion = 0n;
function nextVersion(): bigint {
  const now = BigInt(Math.round((performance.timeOrigin + performance.now()) * 1_000)) * 1_000n;
  lastVersion = now > lastVersion ? now : lastVersion + 1n;
  return lastVersion;
}

// JSONCompactEachRow text, written by hand: a replacer-driven JSON.stringify cost more than the rest of the finaliser
const str = (s: string): string => JSON.stringify(s);
const strs = (xs: readonly string[]): string => JSON.stringify(xs);
/** Numbers and bigints (integers print exactly); NaN as the engine reads it. */
const num = (x: number | bigint): string => (typeof x === 'number' && Number.isNaN(x) ? '"nan"' : String(x));
/** Integers (bigints print exactly): joined as they are. */
const ints = (xs: ReadonlyArray<number | bigint>): string => `[${xs.join(',')}]`;
const floats = (xs: readonly number[]): string => `[${xs.map(num).join(',')}]`;
const time = (ns: bigint): string => `"${nanosToDateTime64(ns)}"`;

const STEP_COLUMNS = `project_id, run_id, step_name, step_kind, run_start, agent, service, outcome, groups, first_ok, recovered,
    attempts, ok_attempts, retry_ns, retry_explicit_cost, retry_models, retry_uncached, retry_cached, retry_output, version`;
const RUN_STEPS_COLUMNS = `project_id, run_id, run_start, start_ns, span_key, duration_ns, explicit_cost, model, uncached, cached,
    output, version`;
const RUN_COLUMNS = `project_id, run_id, run_start, run_end, agent, service, outcome, duration_ns, root_error_type, steps,
    span_count, groups, never_ok, explicit_cost, usage_models, usage_uncached, usage_cached, usage_output, usage_spans,
    input_tokens, output_tokens, cached_input_tokens, loop_kinds, loop_dets, cause_base, self_times, ingested_max, session_id,
    version`;

/**
 * Inserts computed facts like the SQL finaliser does: step facts and run
 * steps first, run facts last (the commit mark a catch-up checks), each a
 * new version of its rows. `ingestedMaxMs` (epoch ms) per run: not before
 * the ingest time of any of its spans.
 */
export async function writeFactRows(
  client: ClickHouseClient,
  projectId: string,
  facts: ReadonlyArray<{ rows: RunFactRows; ingestedMaxMs: number }>,
): Promise<void> {
  if (facts.length === 0) return;
  const version = nextVersion().toString();
  const p = str(projectId);
  const steps: string[] = [];
  const runSteps: string[] = [];
  const runs: string[] = [];
  for (const { rows, ingestedMaxMs } of facts) {
    for (const s of rows.steps)
      steps.push(
        `[${p},${str(s.run_id)},${str(s.step_name)},${str(s.step_kind)},${time(s.run_start)},${str(s.agent)},${str(s.service)},` +
          `${str(s.outcome)},${s.groups},${s.first_ok},${s.recovered},${s.attempts},${s.ok_attempts},${s.retry_ns},` +
          `${num(s.retry_explicit_cost)},${strs(s.retry_models)},${ints(s.retry_uncached)},${ints(s.retry_cached)},` +
          `${ints(s.retry_output)},${version}]`,
      );
    const w = rows.runSteps;
    if (w !== undefined)
      runSteps.push(
        `[${p},${str(w.run_id)},${time(w.run_start)},${ints(w.start_ns)},${ints(w.span_key)},${ints(w.duration_ns)},` +
          `${floats(w.explicit_cost)},${strs(w.model)},${ints(w.uncached)},${ints(w.cached)},${ints(w.output)},${version}]`,
      );
    const r = rows.run;
    const dets = r.loop_dets.map(
      ([code, key1, key2, count, anchorNs, anchorKey, wasted]) =>
        `[${code},${key1},${key2},${count},${anchorNs},${anchorKey},[${wasted
          .map(([startNs, spanKey, durationNs, cost]) => `[${startNs},${spanKey},${durationNs},${num(cost)}]`)
          .join(',')}]]`,
    );
    const selfTimes = r.self_times.map(([kind, step, selfNs]) => `[${kind},${str(step)},${selfNs}]`);
    runs.push(
      `[${p},${str(r.run_id)},${time(r.run_start)},${time(r.run_end)},${str(r.agent)},${str(r.service)},${str(r.outcome)},` +
        `${r.duration_ns},${str(r.root_error_type)},${r.steps},${r.span_count},${r.groups},${r.never_ok},${num(r.explicit_cost)},` +
        `${strs(r.usage_models)},${ints(r.usage_uncached)},${ints(r.usage_cached)},${ints(r.usage_output)},${ints(r.usage_spans)},` +
        `${r.input_tokens},${r.output_tokens},${r.cached_input_tokens},${strs(r.loop_kinds)},[${dets.join(',')}],` +
        `${str(r.cause_base)},[${selfTimes.join(',')}],"${(ingestedMaxMs / 1000).toFixed(3)}",${str(r.session_id)},${version}]`,
    );
  }
  const insert = (table: string, columns: string, values: string[]): Promise<unknown> =>
    values.length === 0
      ? Promise.resolve()
      : client.command({
          query: `INSERT INTO ${table} (${columns}) SETTINGS input_format_json_named_tuples_as_objects = 0 FORMAT JSONCompactEachRow\n${values.join('\n')}`,
        });
  await insert('run_step_facts', STEP_COLUMNS, steps);
  await insert('run_steps', RUN_STEPS_COLUMNS, runSteps);
  await insert('run_facts', RUN_COLUMNS, runs);
}
