import type { Store } from '@telltale/store';
import type { BenchCase } from './BenchCase.js';
import type { BenchContext } from './BenchContext.js';
import { benchCases } from './benchCases.js';

/** Groupings the per-minute rollup holds (step spans by step name, tool, model). */
const ROLLUP_GROUPS = ['step', 'tool', 'model'] as const;

/** 30 s: how far into its first and last minute the edged window starts and ends. */
const EDGE_NS = 30_000_000_000n;

/** One overview query of the scaling table, and whether the rollup serves it. */
export interface ScalingCase {
  name: string;
  rollup: boolean;
  run: () => Promise<unknown>;
}

/**
 * The overview cases of the analytics bench (the dashboard's calls, default
 * precision), plus the rollup-backed forms: step / tool / model percentiles
 * and the step series with `precision: 'sketch'`. Cost breakdowns read the
 * rollup at any precision.
 */
export function scalingCases(ctx: BenchContext): ScalingCase[] {
  const overview = benchCases(ctx).cases.filter((c: BenchCase) => c.kind === 'overview' && c.generic !== true);
  const { analytics, filter } = ctx;
  const sketch: ScalingCase[] = [
    ...ROLLUP_GROUPS.map((groupBy) => ({
      name: `latencyPercentiles(${groupBy}, sketch)`,
      rollup: true,
      run: () => analytics.latencyPercentiles(filter, { groupBy, precision: 'sketch' }),
    })),
    {
      name: 'latencySeries(step, sketch)',
      rollup: true,
      run: () => analytics.latencySeries(filter, { groupBy: 'step', precision: 'sketch' }),
    },
  ];
  // an API caller's window with partial minutes at both ends (the dashboard's are whole minutes): those minutes come from the spans
  const edged = { ...filter, fromUnixNano: filter.fromUnixNano + EDGE_NS, toUnixNano: filter.toUnixNano - EDGE_NS };
  const edges: ScalingCase = {
    name: 'costBreakdown(step), partial-minute edges',
    rollup: false,
    run: () => analytics.costBreakdown(edged, { groupBy: 'step' }),
  };
  return [
    ...overview.map((c) => ({ name: c.name, rollup: c.name.startsWith('costBreakdown('), run: c.ours })),
    ...sketch,
    edges,
  ];
}

/** Runs of the bench preset stored after the load and before the timings: what arrived since the previous catch-up scan. */
export const FRESH_RUNS = 50;

/**
 * The run facts catch-up's scan for stale runs (nothing is stale: every run
 * was finalised), as the leading worker of split roles runs it: over every
 * run (at start and every hour); over the runs with spans ingested since
 * `sinceMs` (storage clock), taken just before the FRESH_RUNS runs were
 * stored; and since `quietSinceMs`, taken after them (no run to compare).
 */
export function catchUpCases(store: Store, sinceMs: number, quietSinceMs: number): ScalingCase[] {
  return [
    { name: 'catch-up scan: every run', rollup: false, run: () => store.runFacts.catchUp() },
    {
      name: `catch-up scan: runs ingested since (${FRESH_RUNS} runs)`,
      rollup: false,
      run: () => store.runFacts.catchUp({ ingestedSinceMs: sinceMs }),
    },
    {
      name: 'catch-up scan: nothing ingested since',
      rollup: false,
      run: () => store.runFacts.catchUp({ ingestedSinceMs: quietSinceMs }),
    },
  ];
}
