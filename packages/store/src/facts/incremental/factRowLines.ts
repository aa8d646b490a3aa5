import { nanosToDateTime64 } from '../../time.js';
import type { RunFactRows } from './computeRunFacts.js';

/**
 * The fact rows of runs as JSONCompactEachRow lines, each without its
 * closing part: what is only known when the rows are written (the version,
 * and a run's ingest time) goes last, so a writer appends it (`closeLines`).
 * The columns are in the order of the `*_COLUMNS` lists below.
 */
export interface FactRowLines {
  /** run_step_facts (STEP_COLUMNS), then `,version]`. */
  steps: string[];
  /** run_steps (RUN_STEPS_COLUMNS), then `,version]`. */
  runSteps: string[];
  /** run_facts (RUN_COLUMNS), then `,ingested_max,version]`. */
  runs: string[];
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

export const STEP_COLUMNS = `project_id, run_id, step_name, step_kind, run_start, agent, service, outcome, groups, first_ok, recovered,
    attempts, ok_attempts, retry_ns, retry_explicit_cost, retry_models, retry_uncached, retry_cached, retry_output, version`;
export const RUN_STEPS_COLUMNS = `project_id, run_id, run_start, start_ns, span_key, duration_ns, explicit_cost, model, uncached, cached,
    output, version`;
export const RUN_COLUMNS = `project_id, run_id, run_start, run_end, agent, service, outcome, duration_ns, root_error_type, steps,
    span_count, groups, never_ok, explicit_cost, usage_models, usage_uncached, usage_cached, usage_output, usage_spans,
    input_tokens, output_tokens, cached_input_tokens, loop_kinds, loop_dets, cause_base, self_times, session_id,
    ingested_max, version`;

/** Appends the fact rows of one run of `projectId` to `out`, as open lines. */
export function addFactRowLines(out: FactRowLines, projectId: string, rows: RunFactRows): void {
  const p = str(projectId);
  for (const s of rows.steps)
    out.steps.push(
      `[${p},${str(s.run_id)},${str(s.step_name)},${str(s.step_kind)},${time(s.run_start)},${str(s.agent)},${str(s.service)},` +
        `${str(s.outcome)},${s.groups},${s.first_ok},${s.recovered},${s.attempts},${s.ok_attempts},${s.retry_ns},` +
        `${num(s.retry_explicit_cost)},${strs(s.retry_models)},${ints(s.retry_uncached)},${ints(s.retry_cached)},` +
        `${ints(s.retry_output)}`,
    );
  const w = rows.runSteps;
  if (w !== undefined)
    out.runSteps.push(
      `[${p},${str(w.run_id)},${time(w.run_start)},${ints(w.start_ns)},${ints(w.span_key)},${ints(w.duration_ns)},` +
        `${floats(w.explicit_cost)},${strs(w.model)},${ints(w.uncached)},${ints(w.cached)},${ints(w.output)}`,
    );
  const r = rows.run;
  const dets = r.loop_dets.map(
    ([code, key1, key2, count, anchorNs, anchorKey, wasted]) =>
      `[${code},${key1},${key2},${count},${anchorNs},${anchorKey},[${wasted
        .map(([startNs, spanKey, durationNs, cost]) => `[${startNs},${spanKey},${durationNs},${num(cost)}]`)
        .join(',')}]]`,
  );
  const selfTimes = r.self_times.map(([kind, step, selfNs]) => `[${kind},${str(step)},${selfNs}]`);
  out.runs.push(
    `[${p},${str(r.run_id)},${time(r.run_start)},${time(r.run_end)},${str(r.agent)},${str(r.service)},${str(r.outcome)},` +
      `${r.duration_ns},${str(r.root_error_type)},${r.steps},${r.span_count},${r.groups},${r.never_ok},${num(r.explicit_cost)},` +
      `${strs(r.usage_models)},${ints(r.usage_uncached)},${ints(r.usage_cached)},${ints(r.usage_output)},${ints(r.usage_spans)},` +
      `${r.input_tokens},${r.output_tokens},${r.cached_input_tokens},${strs(r.loop_kinds)},[${dets.join(',')}],` +
      `${str(r.cause_base)},[${selfTimes.join(',')}],${str(r.session_id)}`,
  );
}

/** An ingest time (epoch ms) as the last-but-one field of a run_facts line. */
export function ingestedField(ms: number): string {
  return `"${(ms / 1000).toFixed(3)}"`;
}
