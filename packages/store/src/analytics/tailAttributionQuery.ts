import { MEDIAN_BAND, TAIL_LEVEL } from '@telltale/semconv';
import type { StoreDb } from '../StoreDb.js';
import type { AnalyticsFilter, PriceTable } from './AnalyticsFilter.js';
import { exactLevelsSql, filterShape, timedRunsSql, type FilterShape } from '../sql/latencySql.js';
import { filterParams, withClause } from '../sql/sqlParts.js';
import { selfTimeCtes } from '../sql/selfTimeSql.js';
import { FACT_RUNS_CTE } from '../facts/factsSql.js';
import { useRunFacts } from '../facts/useRunFacts.js';

/**
 * Run-duration levels (exact nearest rank, as EXACT_QUANTILES_SQL): TAIL_LEVEL
 * and MEDIAN_BAND (@telltale/semconv) bound the tail and the median band.
 * p50 is reported only.
 */
const THRESHOLD_LEVELS_SQL = exactLevelsSql([TAIL_LEVEL, MEDIAN_BAND[0], 0.5, MEDIAN_BAND[1]]);

/** Where self time was spent: a step name, the run root's own time, or spans that are not steps. */
export type TailTimeKind = 'step' | 'run' | 'other';

/** Self time of one step name (or pseudo-step) summed over the tail runs and over the median-band runs. */
export interface TailStepRow {
  /** The step name; '' for kinds `run` and `other`. */
  stepName: string;
  kind: TailTimeKind;
  tailSelfNs: number;
  medianSelfNs: number;
}

export interface TailAttributionRows {
  /** Completed runs considered; 0 when there are none (and every other number is 0). */
  completedRuns: number;
  p99Ns: number;
  p45Ns: number;
  p50Ns: number;
  p55Ns: number;
  tailRuns: number;
  medianRuns: number;
  /** Sum of the tail runs' (root) durations: the denominator of tail shares. */
  tailRunNs: number;
  medianRunNs: number;
  steps: TailStepRow[];
}

/**
 * Self time: a span's duration minus the union of its children's intervals
 * clipped to it (overlapping children count once), never below 0. One pass
 * over the spans of the chosen runs, no join: each span is emitted twice by
 * arrayJoin, once as itself (role 0, keyed by its span id) and once as a child
 * (role 1, keyed by its parent's id), so grouping by that key puts every span
 * next to its children. The key is cityHash64(run id, span id): 20% less CPU
 * than grouping by the two strings; a collision (≈ n²/2^65, 1e-7 for 2M
 * spans) would merge two spans. The union's length is a sweep over the
 * clipped children's start (+1) and end (−1) events sorted by time: the gaps
 * between consecutive events while the depth is above 0 (array functions, no
 * per-element lambda fold).
 *
 * The runs come from one scalar subquery, computed once: the thresholds, the
 * chosen runs' ids and flags (1 = tail, 2 = median band), counts and total
 * durations. Everything derived from the runs is computed inside it: lambda
 * functions are not constant-folded, so an arrayFilter over all runs written
 * in the outer WITH ran again for every block of spans (1.5× the CPU). Each
 * span's run maps to its flag through transform() (a hash table built once).
 */
/** The run_agg scalar and the chosen runs' ids and flags, from `timed_runs (run_id, run_duration_ns)`. */
const CHOSEN_RUNS_SQL = `(SELECT (q, arrayMap(x -> x.1, chosen), arrayMap(x -> if(x.2 >= q[1], toUInt8(1), toUInt8(2)), chosen), n,
        arrayCount(x -> x.2 >= q[1], chosen), arraySum(x -> if(x.2 >= q[1], x.2, 0), chosen),
        arrayCount(x -> x.2 < q[1], chosen), arraySum(x -> if(x.2 < q[1], x.2, 0), chosen))
    FROM (
        SELECT quantilesExact(${THRESHOLD_LEVELS_SQL})(run_duration_ns) AS q, groupArray((run_id, run_duration_ns)) AS all_runs, count() AS n,
            arrayFilter(x -> x.2 >= q[1] OR (x.2 >= q[2] AND x.2 <= q[4]), all_runs) AS chosen
        FROM timed_runs
    )) AS run_agg,
run_agg.2 AS chosen_ids,
run_agg.3 AS chosen_flags`;

/** Self time per (kind, step) in the tail and median-band runs, from `tail_rows (run_flag, kind_code, step, self_ns)`. */
const TAIL_SELECT = `SELECT
    kind_code,
    step,
    sumIf(self_ns, run_flag = 1) AS tail_ns,
    sumIf(self_ns, run_flag = 2) AS median_ns,
    run_agg.4 AS completed,
    run_agg.1 AS thresholds,
    run_agg.5 AS tail_runs,
    run_agg.7 AS median_runs,
    run_agg.6 AS tail_run_ns,
    run_agg.8 AS median_run_ns
FROM tail_rows
GROUP BY kind_code, step
ORDER BY kind_code, step`;

function tailSql(shape: FilterShape): string {
  return `${timedRunsSql(shape)},
${CHOSEN_RUNS_SQL},
${selfTimeCtes('transform(run_id, chosen_ids, chosen_flags, toUInt8(0))')},
tail_rows AS (SELECT run_flag, me.1 AS kind_code, if(kind_code = 0, me.2, '') AS step, self_ns FROM self_times)
${TAIL_SELECT}`;
}

/** The same from the run facts: completed runs' root durations and their stored self time per (kind, step). */
const FACT_TAIL_SQL = `${withClause(FACT_RUNS_CTE)},
timed_runs AS (SELECT run_id, run_duration_ns FROM runs WHERE outcome != 'incomplete'),
${CHOSEN_RUNS_SQL},
tail_rows AS (
    SELECT transform(run_id, chosen_ids, chosen_flags, toUInt8(0)) AS run_flag, st.kind AS kind_code, st.step AS step, st.self_ns AS self_ns
    FROM runs
    ARRAY JOIN self_times AS st
    WHERE run_flag != 0
)
${TAIL_SELECT}`;

type Raw = Record<string, unknown>;

const KIND_BY_CODE: Readonly<Record<number, TailTimeKind>> = { 0: 'step', 1: 'run', 2: 'other' };

/** Per-step self time in the tail (≥ p99) and median-band ([p45, p55], tail excluded) completed runs. */
export async function queryTailAttribution(
  db: StoreDb,
  filter: AnalyticsFilter,
  prices: PriceTable,
): Promise<TailAttributionRows> {
  const { client } = db;
  const result = await client.query({
    query: (await useRunFacts(db.runFacts, filter)) ? FACT_TAIL_SQL : tailSql(filterShape(filter)),
    format: 'JSONEachRow',
    query_params: filterParams(filter, prices),
  });
  const rows = await result.json<Raw>();
  const first = rows[0];
  if (first === undefined) {
    return {
      completedRuns: 0,
      p99Ns: 0,
      p45Ns: 0,
      p50Ns: 0,
      p55Ns: 0,
      tailRuns: 0,
      medianRuns: 0,
      tailRunNs: 0,
      medianRunNs: 0,
      steps: [],
    };
  }
  const q = (first.thresholds as Array<number | string>).map(Number);
  return {
    completedRuns: Number(first.completed),
    p99Ns: q[0] ?? 0,
    p45Ns: q[1] ?? 0,
    p50Ns: q[2] ?? 0,
    p55Ns: q[3] ?? 0,
    tailRuns: Number(first.tail_runs),
    medianRuns: Number(first.median_runs),
    tailRunNs: Number(first.tail_run_ns),
    medianRunNs: Number(first.median_run_ns),
    steps: rows.map((r) => ({
      stepName: String(r.step),
      kind: KIND_BY_CODE[Number(r.kind_code)] ?? 'other',
      tailSelfNs: Number(r.tail_ns),
      medianSelfNs: Number(r.median_ns),
    })),
  };
}
