import type { RunFactRows } from './computeRunFacts.js';
import { RowBinaryWriter } from './RowBinaryWriter.js';

/**
 * One facts table's rows in RowBinary: row i is `bytes[starts[i], starts[i + 1])`.
 * Every row leads with what is only known when the rows are written: its
 * version (8 bytes), and in `run_facts` then its ingest time (8 bytes, when
 * the computation left it to the writer). `stampRows` fills them in.
 */
export interface TableRows {
  bytes: Uint8Array;
  starts: Uint32Array;
}

/** Fact rows of runs, per table, in the column order of the `*_COLUMNS` lists below. */
export interface FactRowBytes {
  steps: TableRows;
  runSteps: TableRows;
  runs: TableRows;
}

/** Where one run's rows are in a FactRowBytes: `[first, end)` row indexes per table. */
export interface RunRows {
  steps: [number, number];
  runSteps: [number, number];
  runs: [number, number];
}

export const STEP_COLUMNS = `version, project_id, run_id, step_name, step_kind, run_start, agent, service, outcome, groups, first_ok,
    recovered, attempts, ok_attempts, retry_ns, retry_explicit_cost, retry_models, retry_uncached, retry_cached, retry_output`;
export const RUN_STEPS_COLUMNS = `version, project_id, run_id, run_start, start_ns, span_key, duration_ns, explicit_cost, model, uncached,
    cached, output`;
export const RUN_COLUMNS = `version, ingested_max, project_id, run_id, run_start, run_end, agent, service, outcome, duration_ns,
    root_error_type, steps, span_count, groups, never_ok, explicit_cost, usage_models, usage_uncached, usage_cached, usage_output,
    usage_spans, input_tokens, output_tokens, cached_input_tokens, loop_kinds, loop_dets, cause_base, self_times, session_id`;

/**
 * Writes the fact rows of runs (computeRunFacts) as RowBinary, table by
 * table; `finish` hands them out in one buffer and starts over, so one
 * writer serves every batch of a thread.
 */
export class FactRowsWriter {
  private readonly steps = new RowBinaryWriter();
  private readonly runSteps = new RowBinaryWriter();
  private readonly runs = new RowBinaryWriter();

  /**
   * Adds the rows of one run of `projectId`; `ingestedMs` is its ingest
   * time (epoch ms; 0: the writer stamps it). Returns where they are.
   */
  add(projectId: string, rows: RunFactRows, ingestedMs = 0): RunRows {
    const at: RunRows = {
      steps: [this.steps.rows, 0],
      runSteps: [this.runSteps.rows, 0],
      runs: [this.runs.rows, 0],
    };
    const w = this.steps;
    for (const s of rows.steps) {
      w.row();
      w.u64(0);
      w.str(projectId);
      w.str(s.run_id);
      w.str(s.step_name);
      w.str(s.step_kind);
      w.i64n(s.run_start);
      w.str(s.agent);
      w.str(s.service);
      w.str(s.outcome);
      w.u32(s.groups);
      w.u32(s.first_ok);
      w.u32(s.recovered);
      w.u32(s.attempts);
      w.u32(s.ok_attempts);
      w.i64n(s.retry_ns);
      w.f64(s.retry_explicit_cost);
      w.strs(s.retry_models);
      w.u64s(s.retry_uncached);
      w.u64s(s.retry_cached);
      w.u64s(s.retry_output);
    }
    const rs = rows.runSteps;
    if (rs !== undefined) {
      const v = this.runSteps;
      v.row();
      v.u64(0);
      v.str(projectId);
      v.str(rs.run_id);
      v.i64n(rs.run_start);
      v.i64ns(rs.start_ns);
      v.u64ns(rs.span_key);
      v.i64ns(rs.duration_ns);
      v.f64s(rs.explicit_cost);
      v.strs(rs.model);
      v.u64s(rs.uncached);
      v.u64s(rs.cached);
      v.u64s(rs.output);
    }
    const r = rows.run;
    const u = this.runs;
    u.row();
    u.u64(0);
    u.u64(Math.round(ingestedMs));
    u.str(projectId);
    u.str(r.run_id);
    u.i64n(r.run_start);
    u.i64n(r.run_end);
    u.str(r.agent);
    u.str(r.service);
    u.str(r.outcome);
    u.i64n(r.duration_ns);
    u.str(r.root_error_type);
    u.u32(r.steps);
    u.u32(r.span_count);
    u.u32(r.groups);
    u.u32(r.never_ok);
    u.f64(r.explicit_cost);
    u.strs(r.usage_models);
    u.u64s(r.usage_uncached);
    u.u64s(r.usage_cached);
    u.u64s(r.usage_output);
    u.u64s(r.usage_spans);
    u.u64(r.input_tokens);
    u.u64(r.output_tokens);
    u.u64(r.cached_input_tokens);
    u.strs(r.loop_kinds);
    u.len(r.loop_dets.length);
    for (const [code, key1, key2, count, anchorNs, anchorKey, wasted] of r.loop_dets) {
      u.u8(code);
      u.u64n(key1);
      u.u64n(key2);
      u.u32(count);
      u.i64n(anchorNs);
      u.u64n(anchorKey);
      u.len(wasted.length);
      for (const [startNs, spanKey, durationNs, cost] of wasted) {
        u.i64n(startNs);
        u.u64n(spanKey);
        u.i64n(durationNs);
        u.f64(cost);
      }
    }
    u.str(r.cause_base);
    u.len(r.self_times.length);
    for (const [kind, step, selfNs] of r.self_times) {
      u.u8(kind);
      u.str(step);
      u.i64n(selfNs);
    }
    u.str(r.session_id);
    at.steps[1] = this.steps.rows;
    at.runSteps[1] = this.runSteps.rows;
    at.runs[1] = this.runs.rows;
    return at;
  }

  /** The rows added since the last `finish`, the three tables in one buffer (one transfer between threads). */
  finish(): FactRowBytes {
    const all = new Uint8Array(this.steps.length + this.runSteps.length + this.runs.length);
    let at = 0;
    const take = (w: RowBinaryWriter): TableRows => {
      const bytes = all.subarray(at, at + w.length);
      at += w.length;
      const starts = w.copyTo(bytes);
      w.reset();
      return { bytes, starts };
    };
    return { steps: take(this.steps), runSteps: take(this.runSteps), runs: take(this.runs) };
  }
}

/**
 * Stamps rows `[from, end)` of a table with `version`, and when `ingestedMs`
 * is given (run_facts rows only) with that ingest time, in place.
 */
export function stampRows(t: TableRows, from: number, end: number, version: bigint, ingestedMs?: number): void {
  const view = new DataView(t.bytes.buffer, t.bytes.byteOffset, t.bytes.byteLength);
  for (let i = from; i < end; i++) {
    const at = t.starts[i]!;
    view.setBigUint64(at, version, true);
    if (ingestedMs !== undefined) view.setBigInt64(at + 8, BigInt(ingestedMs), true);
  }
}

/** The bytes of rows `[from, end)` of a table (a view, not a copy). */
export function rowsOf(t: TableRows, from: number, end: number): Uint8Array {
  return t.bytes.subarray(t.starts[from], t.starts[end]);
}
