import type { BenchCase } from './BenchCase.js';
import type { BenchContext } from './BenchContext.js';
import { PLAIN_LOOP_INPUT } from './plainLoopSql.js';

const OVERVIEW = { kind: 'overview', targetMs: 500, maxRatio: 2 } as const;
/** The series interval (36 buckets over the 6-hour window). */
export const LOOP_INTERVAL_SECONDS = 600;

/** Loop detections, loop rate, per-run flags; failure causes, their series, per-run causes (default thresholds). */
export function loopCases(ctx: BenchContext): BenchCase[] {
  const { analytics, filter, sql } = ctx;
  const lowerBound = { plain: async () => ({ input: await sql(PLAIN_LOOP_INPUT) }), plainIsLowerBound: true };
  return [
    {
      name: 'loops (first 50)',
      method: 'Analytics#loops',
      ...OVERVIEW,
      ours: () => analytics.loops(filter),
      ...lowerBound,
    },
    {
      name: `loopRate(${LOOP_INTERVAL_SECONDS} s)`,
      method: 'Analytics#loopRate',
      ...OVERVIEW,
      ours: () => analytics.loopRate(filter, { intervalSeconds: LOOP_INTERVAL_SECONDS }),
      ...lowerBound,
    },
    {
      name: 'runLoopFlags (whole window)',
      method: 'Analytics#runLoopFlags',
      ...OVERVIEW,
      ours: () => analytics.runLoopFlags(filter),
      ...lowerBound,
    },
    {
      name: 'failures',
      method: 'Analytics#failures',
      ...OVERVIEW,
      ours: () => analytics.failures(filter),
      ...lowerBound,
    },
    {
      name: `failureSeries(${LOOP_INTERVAL_SECONDS} s)`,
      method: 'Analytics#failureSeries',
      ...OVERVIEW,
      ours: () => analytics.failureSeries(filter, { intervalSeconds: LOOP_INTERVAL_SECONDS }),
      ...lowerBound,
    },
    {
      name: 'runCauses (whole window)',
      method: 'Analytics#runCauses',
      ...OVERVIEW,
      ours: () => analytics.runCauses(filter),
      ...lowerBound,
    },
  ];
}
